package io.github.txinbox.bench;

import io.github.txinbox.bench.kafka.BenchConsumers;
import io.github.txinbox.bench.kafka.BenchHandlers;
import io.github.txinbox.it.app.TestDatabase;
import io.github.txinbox.it.harness.Await;
import io.github.txinbox.it.harness.Deployments;
import io.github.txinbox.it.harness.KafkaBroker;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
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
 * Item 7: Kafka records through MicroProfile Reactive Messaging on WildFly, with and without {@code @Inbox}. Three
 * channels, each on a topic of {@value #PARTITIONS} partitions read by as many copies of the channel, hand each record
 * to a handler that writes one invoice row in a transaction of its own: without the inbox, with {@code @Inbox}, and
 * with the marker's bare INSERT written by hand (the floor of what a marker costs). Each round sends
 * {@value #RECORDS} distinct records in one burst to one topic and times them from the first send until every invoice
 * is committed; the arms take turns, in an order that rotates every round. Runs on the WildFly non-XA set-up
 * (see docs/benchmarks.md for the command).
 */
@Order(7)
@Tag("kafka")
@ExtendWith(ArquillianExtension.class)
class KafkaThroughputBenchmark {

    private static final int RECORDS = 4_000;
    private static final int ROUNDS = 5;
    private static final int PARTITIONS = 4;

    /** One channel of the benchmark: its topic, its consumer group, and the handler's name on its invoices. */
    private enum Arm {
        WITHOUT(BenchConsumers.WITHOUT_INBOX, "bench-without-inbox", BenchHandlers.WithoutInbox.NAME),
        INBOX(BenchConsumers.WITH_INBOX, "bench-with-inbox", BenchHandlers.WithInbox.NAME),
        MARKER_BY_HAND(BenchConsumers.MARKER_BY_HAND, "bench-marker-by-hand", BenchHandlers.MarkerByHand.NAME);

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
        for (Arm arm : Arm.values()) {
            broker.createTopicIfAbsent(arm.topic, PARTITIONS);
            broker.createTopicIfAbsent(arm.topic + "-dead", 1);
            channels.add(Deployments.kafkaChannel(arm.channel, arm.topic, arm.topic, PARTITIONS, arm.topic + "-dead",
                    Map.of()));
        }
        return Deployments.withKafkaChannels(
                Deployments.war(KafkaThroughputBenchmark.class).addPackage(BenchConsumers.class.getPackage()),
                channels.toArray(String[]::new));
    }

    /** Sends a round to the arm's topic and times it until the handler's invoices are all committed. */
    private static double recordsPerSecond(Arm arm) {
        List<ProducerRecord<String, String>> records = new ArrayList<>(RECORDS);
        for (int i = 0; i < RECORDS; i++) {
            String orderId = "order-" + UUID.randomUUID();
            ProducerRecord<String, String> record = new ProducerRecord<>(arm.topic, i % PARTITIONS, orderId, orderId);
            record.headers().add("message-id", orderId.getBytes(StandardCharsets.UTF_8));
            records.add(record);
        }
        long before = invoices(arm.consumer);
        long start = System.nanoTime();
        KafkaBroker.current().send(records);
        Await.until(Duration.ofMinutes(10), RECORDS + " invoices of " + arm.consumer,
                () -> invoices(arm.consumer) - before >= RECORDS);
        long nanos = System.nanoTime() - start;
        long invoiced = invoices(arm.consumer) - before;
        if (invoiced != RECORDS) {
            throw new IllegalStateException(arm.consumer + ": " + invoiced + " invoices for " + RECORDS + " records");
        }
        return RECORDS / (nanos / 1e9);
    }

    private static long invoices(String consumer) {
        return TestDatabase.queryLong("SELECT count(*) FROM " + TestDatabase.SCHEMA + ".invoice WHERE consumer = ?",
                consumer);
    }

    @Test
    void withAndWithoutTheInbox() {
        Arm[] arms = Arm.values();
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
                rates.get(arm).add(recordsPerSecond(arm));
            }
        }
        String runs = ROUNDS + " rounds of " + RECORDS + " records per arm; the ratio is the median of the rounds' "
                + "ratios; " + PARTITIONS + " partitions, concurrency " + PARTITIONS;
        record("Kafka consumer throughput on WildFly with @Inbox vs without, records/s", rates.get(Arm.WITHOUT),
                rates.get(Arm.INBOX), ">= 0.85", runs);
        record("the floor: without the inbox, but with the marker's bare INSERT written by hand in the handler's "
                + "transaction, vs without, records/s", rates.get(Arm.WITHOUT), rates.get(Arm.MARKER_BY_HAND), "-",
                runs);
        record("@Inbox vs the marker's bare INSERT by hand: what the inbox adds over its row, records/s",
                rates.get(Arm.MARKER_BY_HAND), rates.get(Arm.INBOX), "-", runs);
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
            Results.record("7", "PostgreSQL's executor time per call: the claim's statement vs the handler's INSERT "
                    + "of its invoice", Results.format(invoice.meanMicros(), "µs"),
                    Results.format(claim.meanMicros(), "µs"), claim.meanMicros() / invoice.meanMicros(), "-", listed);
            Results.record("7", "PostgreSQL's executor time per call: the marker's bare INSERT by hand vs the "
                    + "handler's INSERT of its invoice", Results.format(invoice.meanMicros(), "µs"),
                    Results.format(bare.meanMicros(), "µs"), bare.meanMicros() / invoice.meanMicros(), "-", listed);
        }
    }

    private static void record(String measure, List<Double> baseline, List<Double> measured, String target,
            String runs) {
        List<Double> ratios = new ArrayList<>();
        for (int i = 0; i < baseline.size(); i++) {
            ratios.add(measured.get(i) / baseline.get(i));
        }
        Results.record("7", measure, Results.format(Results.median(baseline), "rec/s"),
                Results.format(Results.median(measured), "rec/s"), Results.median(ratios), target, runs);
    }
}
