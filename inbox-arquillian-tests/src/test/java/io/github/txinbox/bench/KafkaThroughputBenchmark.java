package io.github.txinbox.bench;

import io.github.txinbox.bench.kafka.BenchConsumers;
import io.github.txinbox.bench.kafka.BenchHandlers;
import io.github.txinbox.it.app.TestDatabase;
import io.github.txinbox.it.harness.Await;
import io.github.txinbox.it.harness.Deployments;
import io.github.txinbox.it.harness.KafkaBroker;
import io.github.txinbox.it.kafka.InApplication;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
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
 * Item 7: Kafka records through MicroProfile Reactive Messaging on WildFly, with and without {@code @Inbox}. Two
 * channels, each on a topic of {@value #PARTITIONS} partitions read by as many copies of the channel, hand each record
 * to a handler that writes one invoice row in a transaction of its own; the handlers differ only in {@code @Inbox}.
 * Each round sends {@value #RECORDS} distinct records in one burst to one of the two topics and times them from the
 * first send until every invoice is committed; rounds alternate between the two. Runs on the WildFly non-XA set-up
 * (see docs/benchmarks.md for the command).
 */
@Order(7)
@Tag("kafka")
@ExtendWith(ArquillianExtension.class)
class KafkaThroughputBenchmark {

    private static final int RECORDS = 4_000;
    private static final int ROUNDS = 5;
    private static final int PARTITIONS = 4;
    private static final String WITH_TOPIC = "bench-with-inbox";
    private static final String WITHOUT_TOPIC = "bench-without-inbox";

    @Deployment(testable = false)
    static WebArchive deployment() {
        Results.prepare();
        KafkaBroker broker = KafkaBroker.current();
        for (String topic : List.of(WITH_TOPIC, WITHOUT_TOPIC)) {
            broker.createTopicIfAbsent(topic, PARTITIONS);
            broker.createTopicIfAbsent(topic + "-dead", 1);
        }
        return Deployments.withKafkaChannels(
                Deployments.war(KafkaThroughputBenchmark.class).addPackage(BenchConsumers.class.getPackage())
                        .addClass(InApplication.class),
                Deployments.kafkaChannel(BenchConsumers.WITH_INBOX, WITH_TOPIC, "bench-with", PARTITIONS,
                        WITH_TOPIC + "-dead", Map.of()),
                Deployments.kafkaChannel(BenchConsumers.WITHOUT_INBOX, WITHOUT_TOPIC, "bench-without", PARTITIONS,
                        WITHOUT_TOPIC + "-dead", Map.of()));
    }

    /** Sends a round to the topic and times it until the consumer's invoices are all committed. */
    private static double recordsPerSecond(String topic, String consumer) {
        List<ProducerRecord<String, String>> records = new ArrayList<>(RECORDS);
        for (int i = 0; i < RECORDS; i++) {
            String orderId = "order-" + UUID.randomUUID();
            ProducerRecord<String, String> record = new ProducerRecord<>(topic, i % PARTITIONS, orderId, orderId);
            record.headers().add("message-id", orderId.getBytes(StandardCharsets.UTF_8));
            records.add(record);
        }
        long before = invoices(consumer);
        long start = System.nanoTime();
        KafkaBroker.current().send(records);
        Await.until(Duration.ofMinutes(10), RECORDS + " invoices of " + consumer,
                () -> invoices(consumer) - before >= RECORDS);
        long nanos = System.nanoTime() - start;
        long invoiced = invoices(consumer) - before;
        if (invoiced != RECORDS) {
            throw new IllegalStateException(consumer + ": " + invoiced + " invoices for " + RECORDS + " records");
        }
        return RECORDS / (nanos / 1e9);
    }

    private static long invoices(String consumer) {
        return TestDatabase.queryLong("SELECT count(*) FROM " + TestDatabase.SCHEMA + ".invoice WHERE consumer = ?",
                consumer);
    }

    @Test
    void withAndWithoutTheInbox() {
        String with = BenchHandlers.WithInbox.NAME;
        String without = BenchHandlers.WithoutInbox.NAME;
        // A warm-up round each: the first records also load the classes and fill the pools.
        recordsPerSecond(WITHOUT_TOPIC, without);
        recordsPerSecond(WITH_TOPIC, with);
        Results.Rounds plain = new Results.Rounds();
        Results.Rounds inbox = new Results.Rounds();
        List<Double> ratios = new ArrayList<>();
        for (int round = 0; round < ROUNDS; round++) {
            double withoutRate;
            double withRate;
            if (round % 2 == 0) {
                withoutRate = recordsPerSecond(WITHOUT_TOPIC, without);
                withRate = recordsPerSecond(WITH_TOPIC, with);
            } else {
                withRate = recordsPerSecond(WITH_TOPIC, with);
                withoutRate = recordsPerSecond(WITHOUT_TOPIC, without);
            }
            plain.add(withoutRate);
            inbox.add(withRate);
            ratios.add(withRate / withoutRate);
        }
        Results.record("7", "Kafka consumer throughput on WildFly with @Inbox vs without, records/s",
                Results.format(plain.median(), "rec/s"), Results.format(inbox.median(), "rec/s"),
                Results.median(ratios), "-", ROUNDS + " rounds of " + RECORDS + " records; the ratio is the median "
                        + "of the rounds' ratios; " + PARTITIONS + " partitions, concurrency " + PARTITIONS);
    }
}
