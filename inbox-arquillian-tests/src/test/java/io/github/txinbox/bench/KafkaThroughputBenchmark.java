package io.github.txinbox.bench;

import io.github.txinbox.bench.kafka.BenchBatchConsumers;
import io.github.txinbox.bench.kafka.BenchConsumers;
import io.github.txinbox.bench.kafka.BenchHandlers;
import io.github.txinbox.bench.kafka.liberty.LibertyBenchConsumers;
import io.github.txinbox.it.app.TestDatabase;
import io.github.txinbox.it.harness.Await;
import io.github.txinbox.it.harness.Deployments;
import io.github.txinbox.it.harness.KafkaBroker;
import io.github.txinbox.it.harness.Server;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Item 7: Kafka records through MicroProfile Reactive Messaging, with and without {@code @Inbox}. Three
 * channels, each on a topic of {@value #PARTITIONS} partitions read by as many copies of the channel, hand each record
 * to a handler that writes one invoice row in a transaction of its own: without the inbox, with {@code @Inbox}, and
 * with the marker's bare INSERT written by hand (the floor of what a marker costs). Each round sends
 * {@value #RECORDS} distinct records in one burst to one topic and times them from the first send until every invoice
 * is committed; the arms take turns, in an order that rotates every round, and the processor time of the measured
 * rounds is read per process (the server, PostgreSQL, the Kafka broker and this JVM, the sender). Runs on the non-XA
 * set-up of WildFly (SmallRye's connector, {@value #PARTITIONS} copies of each channel) or Open Liberty (its
 * {@code liberty-kafka} connector, one consumer per channel); see docs/benchmarks.md for the command. On WildFly two
 * more channels read batches ({@code batch=true}): a poll's invoices in one transaction, with {@code @Inbox} on the
 * {@code List<ConsumerRecord>} (one claim per poll) and without it; Open Liberty's connector has no batches.
 */
@Order(7)
@Tag("kafka")
@ExtendWith(ArquillianExtension.class)
class KafkaThroughputBenchmark {

    private static final int RECORDS = 4_000;
    private static final int BATCH_RECORDS = 20_000;
    private static final int ROUNDS = 5;
    private static final int PARTITIONS = 4;

    /** Whether the run's connector is Open Liberty's: one consumer per channel, and its own consumer shape. */
    private static final boolean LIBERTY = Deployments.libertyKafka();

    /** The server's name in the measures. */
    private static final String SERVER = LIBERTY ? "Open Liberty" : "WildFly";

    /** The server's directory, which its processes' command lines name, for their processor time. */
    private static final String SERVER_HOME = Server.required(LIBERTY ? "txinbox.it.liberty.home"
            : "txinbox.it.wildfly.home");

    /** One channel of the benchmark: its topic, its consumer group, and the handler's name on its invoices. */
    private enum Arm {
        WITHOUT(BenchConsumers.WITHOUT_INBOX, "bench-without-inbox", BenchHandlers.WithoutInbox.NAME),
        INBOX(BenchConsumers.WITH_INBOX, "bench-with-inbox", BenchHandlers.WithInbox.NAME),
        MARKER_BY_HAND(BenchConsumers.MARKER_BY_HAND, "bench-marker-by-hand", BenchHandlers.MarkerByHand.NAME),
        BATCH_WITHOUT(BenchBatchConsumers.WITHOUT_INBOX, "bench-batch-without-inbox",
                BenchHandlers.BatchWithoutInbox.NAME),
        BATCH_INBOX(BenchBatchConsumers.WITH_INBOX, "bench-batch-with-inbox", BenchHandlers.BatchWithInbox.NAME);

        /** Whether the arm reads batches, which only SmallRye's connector hands over. */
        boolean batch() {
            return this == BATCH_WITHOUT || this == BATCH_INBOX;
        }

        /**
         * The records of one of its rounds: a batch arm handles a round of {@value #RECORDS} in a third of a second,
         * which the connector's own pauses (its polls, the fetches' waits) would then dominate.
         */
        int records() {
            return batch() ? BATCH_RECORDS : RECORDS;
        }

        /** The arms this run's connector can run. */
        static Arm[] ofThisRun() {
            return Arrays.stream(values()).filter(arm -> !LIBERTY || !arm.batch()).toArray(Arm[]::new);
        }

        private final String channel;
        private final String topic;
        private final String consumer;

        Arm(String channel, String topic, String consumer) {
            this.channel = channel;
            this.topic = topic;
            this.consumer = consumer;
        }
    }

    @Deployment(testable = false)
    static WebArchive deployment() {
        Results.prepare();
        KafkaBroker broker = KafkaBroker.current();
        List<String> channels = new ArrayList<>();
        for (Arm arm : Arm.ofThisRun()) {
            broker.createTopicIfAbsent(arm.topic, PARTITIONS);
            broker.createTopicIfAbsent(arm.topic + "-dead", 1);
            channels.add(Deployments.kafkaChannel(arm.channel, arm.topic, arm.topic, PARTITIONS, arm.topic + "-dead",
                    arm.batch() ? Map.of("batch", "true") : Map.of()));
        }
        WebArchive war = Deployments.withConsumerFor(Deployments.war(KafkaThroughputBenchmark.class)
                .addPackage(BenchConsumers.class.getPackage()), BenchConsumers.class, LibertyBenchConsumers.class);
        if (LIBERTY) {
            war.deleteClass(BenchBatchConsumers.class);
        }
        return Deployments.withKafkaChannels(war, channels.toArray(String[]::new));
    }

    /** The processor time of the measured rounds, per arm, and the records they handled. */
    private final Map<Arm, CpuTime> cpu = new EnumMap<>(Arm.class);

    private final Map<Arm, Long> cpuRecords = new EnumMap<>(Arm.class);

    /** Runs a measured round of the arm, and adds its processor time to the arm's. */
    private double measuredRound(Arm arm) {
        CpuTime before = CpuTime.now(SERVER_HOME, KafkaBroker.current().pid());
        double rate = recordsPerSecond(arm);
        CpuTime used = CpuTime.now(SERVER_HOME, KafkaBroker.current().pid()).minus(before);
        cpu.merge(arm, used, CpuTime::plus);
        cpuRecords.merge(arm, (long) arm.records(), Long::sum);
        return rate;
    }

    /** Sends a round to the arm's topic and times it until the handler's invoices are all committed. */
    private static double recordsPerSecond(Arm arm) {
        int count = arm.records();
        List<ProducerRecord<String, String>> records = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            String orderId = "order-" + UUID.randomUUID();
            ProducerRecord<String, String> record = new ProducerRecord<>(arm.topic, i % PARTITIONS, orderId, orderId);
            record.headers().add("message-id", orderId.getBytes(StandardCharsets.UTF_8));
            records.add(record);
        }
        long before = invoices(arm.consumer);
        long start = System.nanoTime();
        KafkaBroker.current().send(records);
        Await.until(Duration.ofMinutes(10), count + " invoices of " + arm.consumer,
                () -> invoices(arm.consumer) - before >= count);
        long nanos = System.nanoTime() - start;
        long invoiced = invoices(arm.consumer) - before;
        if (invoiced != count) {
            throw new IllegalStateException(arm.consumer + ": " + invoiced + " invoices for " + count + " records");
        }
        return count / (nanos / 1e9);
    }

    private static long invoices(String consumer) {
        return TestDatabase.queryLong("SELECT count(*) FROM " + TestDatabase.SCHEMA + ".invoice WHERE consumer = ?",
                consumer);
    }

    @Test
    void withAndWithoutTheInbox() {
        Arm[] arms = Arm.ofThisRun();
        // A warm-up round each: the first records also load the classes and fill the pools.
        for (Arm arm : arms) {
            recordsPerSecond(arm);
        }
        boolean statements = Statements.reset();
        Map<Arm, List<Double>> rates = new EnumMap<>(Arm.class);
        for (Arm arm : arms) {
            rates.put(arm, new ArrayList<>());
        }
        for (int round = 0; round < ROUNDS; round++) {
            // Rotate which goes first, so that none always follows another's backlog.
            for (int k = 0; k < arms.length; k++) {
                Arm arm = arms[(round + k) % arms.length];
                rates.get(arm).add(measuredRound(arm));
            }
        }
        String runs = ROUNDS + " rounds of " + RECORDS + " records per arm; the ratio is the median of the rounds' "
                + "ratios; " + PARTITIONS + " partitions, " + Deployments.kafkaCopies(PARTITIONS)
                + " consumer(s) per channel";
        String batchRuns = runs.replace(RECORDS + " records per arm", BATCH_RECORDS + " records per batch arm ("
                + RECORDS + " per other arm)");
        record("Kafka consumer throughput on " + SERVER + " with @Inbox vs without, records/s", rates.get(Arm.WITHOUT),
                rates.get(Arm.INBOX), ">= 0.85", runs);
        record("the floor: without the inbox, but with the marker's bare INSERT written by hand in the handler's "
                + "transaction, vs without, records/s", rates.get(Arm.WITHOUT), rates.get(Arm.MARKER_BY_HAND), "-",
                runs);
        record("@Inbox vs the marker's bare INSERT by hand: what the inbox adds over its row, records/s",
                rates.get(Arm.MARKER_BY_HAND), rates.get(Arm.INBOX), "-", runs);
        if (!LIBERTY) {
            record("Kafka batch consumer (batch=true, a poll per transaction) on " + SERVER + " with @Inbox vs "
                    + "without, records/s", rates.get(Arm.BATCH_WITHOUT), rates.get(Arm.BATCH_INBOX), ">= 0.90",
                    batchRuns);
            record("for comparison: the batch consumer with @Inbox vs the per-record consumer with @Inbox, records/s",
                    rates.get(Arm.INBOX), rates.get(Arm.BATCH_INBOX), "-", batchRuns);
            cpu("processor time per record on " + SERVER + ", the batch consumer with @Inbox vs without (server, "
                    + "PostgreSQL, broker and sender)", Arm.BATCH_WITHOUT, Arm.BATCH_INBOX);
        }
        cpu("processor time per record on " + SERVER + ", with @Inbox vs without (server, PostgreSQL, broker and "
                + "sender)", Arm.WITHOUT, Arm.INBOX);
        cpu("processor time per record on " + SERVER + ", the marker's bare INSERT by hand vs without (server, "
                + "PostgreSQL, broker and sender)", Arm.WITHOUT, Arm.MARKER_BY_HAND);
        if (statements) {
            List<Statements.Cost> costs = Statements.since(RECORDS);
            Statements.Cost claim = Statements.claim(costs);
            Statements.Cost bare = Statements.bareMarkerInsert(costs);
            Statements.Cost invoice = Statements.find(costs, "insert into", "invoice");
            if (claim == null || bare == null || invoice == null) {
                throw new IllegalStateException("pg_stat_statements lists no claim, bare marker or invoice INSERT: "
                        + costs);
            }
            String listed = "pg_stat_statements over the measured rounds of every arm; " + claim.describe() + "; "
                    + bare.describe() + "; " + invoice.describe();
            Statements.Cost batchClaim = LIBERTY ? null
                    : Statements.find(Statements.since(1), "jsonb_array_elements_text", "insert into");
            if (!LIBERTY && batchClaim == null) {
                throw new IllegalStateException("pg_stat_statements lists no batch claim: " + costs);
            }
            if (batchClaim != null) {
                // The measured rounds (the statistics were reset after the warm-up): the batch arm's polls.
                long batchRecords = (long) BATCH_RECORDS * ROUNDS;
                double perRecord = batchClaim.meanMicros() * batchClaim.calls() / batchRecords;
                Results.record("7", "PostgreSQL's executor time per record: the batch claim's statement (one per poll) "
                        + "vs the handler's INSERT of its invoice", Results.format(invoice.meanMicros(), "µs"),
                        Results.format(perRecord, "µs"), perRecord / invoice.meanMicros(), "-",
                        "pg_stat_statements over the measured rounds; the batch claim: " + batchClaim.calls()
                                + " calls for " + batchRecords + " records, " + String.format(java.util.Locale.ROOT,
                                "%.0f", batchRecords / (double) batchClaim.calls()) + " records per poll, "
                                + Results.format(batchClaim.meanMicros(), "µs") + " per call");
            }
            Results.record("7", "PostgreSQL's executor time per call: the claim's statement vs the handler's INSERT "
                    + "of its invoice", Results.format(invoice.meanMicros(), "µs"),
                    Results.format(claim.meanMicros(), "µs"), claim.meanMicros() / invoice.meanMicros(), "-", listed);
            Results.record("7", "PostgreSQL's executor time per call: the marker's bare INSERT by hand vs the "
                    + "handler's INSERT of its invoice", Results.format(invoice.meanMicros(), "µs"),
                    Results.format(bare.meanMicros(), "µs"), bare.meanMicros() / invoice.meanMicros(), "-", listed);
        }
    }

    /** Records the processor time per record of two arms over their measured rounds, and where it went. */
    private void cpu(String measure, Arm baseline, Arm measured) {
        CpuTime before = cpu.get(baseline);
        CpuTime after = cpu.get(measured);
        if (before.total() < 0 || after.total() < 0) {
            throw new IllegalStateException("The processor time of a process could not be read: " + before + ", "
                    + after);
        }
        long beforeRecords = cpuRecords.get(baseline);
        long afterRecords = cpuRecords.get(measured);
        double ratio = (after.total() / (double) afterRecords) / (before.total() / (double) beforeRecords);
        Results.record("7", measure, micros(before.total(), beforeRecords), micros(after.total(), afterRecords), ratio,
                "-", "the measured rounds; the two arms: server " + micros(before.server(), beforeRecords) + " / "
                        + micros(after.server(), afterRecords) + ", PostgreSQL "
                        + micros(before.database(), beforeRecords) + " / " + micros(after.database(), afterRecords)
                        + ", broker and sender " + micros(before.client(), beforeRecords) + " / "
                        + micros(after.client(), afterRecords));
    }

    private static String micros(long nanos, long records) {
        return Results.format(nanos / 1_000.0 / records, "µs");
    }

    private static void record(String measure, List<Double> baseline, List<Double> measured, String target,
            String runs) {
        List<Double> ratios = Results.roundRatios(baseline, measured);
        Results.record("7", measure, Results.format(Results.median(baseline), "rec/s"),
                Results.format(Results.median(measured), "rec/s"), Results.median(ratios), target, runs);
    }
}
