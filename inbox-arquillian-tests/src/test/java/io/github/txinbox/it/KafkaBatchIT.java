package io.github.txinbox.it;

import static io.github.txinbox.it.app.TestDatabase.INBOX;
import static io.github.txinbox.it.app.TestDatabase.handlerCalls;
import static io.github.txinbox.it.app.TestDatabase.invoices;
import static io.github.txinbox.it.app.TestDatabase.markers;
import static io.github.txinbox.it.app.TestDatabase.newOrderId;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.txinbox.it.app.TestDatabase;
import io.github.txinbox.it.harness.Await;
import io.github.txinbox.it.harness.Deployments;
import io.github.txinbox.it.harness.KafkaBroker;
import io.github.txinbox.it.kafka.KafkaOrders;
import io.github.txinbox.it.kafka.batch.KafkaBatchOrdersConsumer;
import io.github.txinbox.it.portable.DecisionLog;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.stream.Stream;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Batches of Kafka records on SmallRye's connector ({@code batch=true}), on the run's real Kafka broker: the consumer
 * ({@link KafkaBatchOrdersConsumer}) hands each poll to an {@code @Inbox} method taking a {@code List<ConsumerRecord>},
 * which claims the poll in one statement and runs the records it claimed in one transaction; when that transaction
 * rolls back, the consumer hands the records one by one to the per-record {@code @Inbox} method of the same scope and
 * dead-letters only the record that fails alone. The topic has one partition, and the channel's consumer waits
 * ({@code fetch.min.bytes}, {@code fetch.max.wait.ms}) so that the records a test sends at once come in one poll; each
 * test checks that they did.
 */
@Tag("kafka-batch")
@ExtendWith(ArquillianExtension.class)
class KafkaBatchIT {

    private static final Duration WAIT = Duration.ofSeconds(60);

    private static final String SCOPE = KafkaOrders.SCOPE;

    private static final String TOPIC = "kafka-batch";

    private static final String GROUP = "txinbox-it-kafka-batch";

    /** Where the connector would put the records of a nacked batch: no test nacks one. */
    private static final String NACKED_TOPIC = "kafka-batch-nacked";

    /** The consumer's own dead letters, one record each. */
    private static final String DEAD_LETTER_TOPIC = KafkaBatchOrdersConsumer.DEAD_LETTERS;

    @Deployment(testable = false)
    static WebArchive deployment() {
        KafkaBroker broker = KafkaBroker.current();
        broker.createTopicIfAbsent(TOPIC, 1);
        broker.createTopicIfAbsent(NACKED_TOPIC, 1);
        broker.createTopicIfAbsent(DEAD_LETTER_TOPIC, 1);
        return batchChannel(Deployments.war(KafkaBatchIT.class), TOPIC, GROUP, NACKED_TOPIC, Map.of());
    }

    /**
     * Adds the batch consumer and its handlers to a deployment, with the batch channel on a topic and the outgoing
     * channel of its dead letters.
     *
     * @param war         the deployment
     * @param topic       the topic the batch channel reads
     * @param group       its consumer group
     * @param nackedTopic where the connector puts the records of a nacked batch
     * @param more        further settings of the channel
     * @return the same deployment
     */
    static WebArchive batchChannel(WebArchive war, String topic, String group, String nackedTopic,
            Map<String, String> more) {
        war.addPackage(KafkaBatchOrdersConsumer.class.getPackage())
                .addClasses(KafkaOrders.class, io.github.txinbox.it.kafka.AfterCommitStall.class,
                        io.github.txinbox.it.crash.CrashPoint.class, DecisionLog.class);
        Map<String, String> settings = new java.util.LinkedHashMap<>(Map.of("batch", "true",
                // A fetch waits up to 1.5 s for more records, so that the records sent at once come in one poll.
                "fetch.min.bytes", "1000000", "fetch.max.wait.ms", "1500"));
        settings.putAll(more);
        String outgoing = "mp.messaging.outgoing." + KafkaBatchOrdersConsumer.DEAD_LETTERS + ".";
        return Deployments.withKafkaChannels(war,
                Deployments.kafkaChannel(KafkaBatchOrdersConsumer.CHANNEL, topic, group, 1, nackedTopic, settings),
                outgoing + "connector=smallrye-kafka\n"
                        + outgoing + "topic=" + KafkaBatchOrdersConsumer.DEAD_LETTERS + "\n"
                        + outgoing + "bootstrap.servers=" + KafkaBroker.current().bootstrapServers() + "\n"
                        + outgoing + "key.serializer=org.apache.kafka.common.serialization.StringSerializer\n"
                        + outgoing + "value.serializer=org.apache.kafka.common.serialization.StringSerializer\n");
    }

    @BeforeEach
    void groupSettled() {
        Await.until(WAIT, "the group " + GROUP + " to settle with its consumer",
                () -> KafkaBroker.current().settled(GROUP, 1));
    }

    /** Every batch is acknowledged, and none nacked: the connector dead-lettered nothing. */
    @AfterEach
    void everyRecordCommitted() {
        Await.until(WAIT, "the group " + GROUP + " to commit every record of " + TOPIC,
                () -> KafkaBroker.current().committed(GROUP, TOPIC).equals(KafkaBroker.current().ends(TOPIC)));
        assertEquals(List.of(), records(NACKED_TOPIC), "no batch was nacked");
        assertEquals(0, TestDatabase.preparedTransactions(), "PostgreSQL holds no prepared transaction");
    }

    @Test
    void aRecordThatFailsInTheMiddleOfABatchIsDeadLetteredAloneAndEveryOtherCommitsOnce() {
        List<String> orders = Stream.generate(TestDatabase::newOrderId).limit(5).toList();
        String failing = orders.get(2);
        KafkaBroker.current().send(orders.stream()
                .map(order -> KafkaOrders.order(TOPIC, 0, order, order, order.equals(failing) ? "fail-always" : null))
                .toList());

        Await.until(WAIT, failing + " in " + DEAD_LETTER_TOPIC, () -> deadLettered(failing).size() == 1);
        Await.until(WAIT, "the other orders invoiced", () -> orders.stream()
                .filter(order -> !order.equals(failing)).allMatch(order -> invoices(SCOPE, order) == 1));
        assertEquals(List.of(5L), polls(failing), "the failing record came in one poll with the four others");
        for (String order : orders) {
            boolean failed = order.equals(failing);
            assertEquals(failed ? 0 : 1, invoices(SCOPE, order), order + "'s effect");
            assertEquals(failed ? 0 : 1, markers(INBOX, SCOPE, order), order + "'s marker");
            // The batch ran up to the failing record and rolled back, then each record ran alone: one effect each.
            assertEquals(orders.indexOf(order) <= 2 ? 2 : 1, handlerCalls(SCOPE, order),
                    order + ": in the batch up to the failing record, then alone");
            assertEquals(failed ? 0 : 1, decisions(order, "PROCESSED"), order);
            assertEquals(failed ? 1 : 0, decisions(order, "FAILURE"), order + ": alone");
            assertEquals(1, decisions(order, "ROLLED_BACK"), order + ": with its batch");
        }
        assertEquals("rolled back with its batch (FAILURE): java.lang.IllegalStateException: simulated failure of "
                + "call 1 for " + failing, TestDatabase.queryString("SELECT reason FROM " + TestDatabase.SCHEMA
                + ".inbox_decision WHERE scope = ? AND message_id = ? AND outcome = 'ROLLED_BACK'", SCOPE,
                orders.get(0)), "a record of the batch says why it rolled back");
        ConsumerRecord<String, String> dead = deadLettered(failing).get(0);
        assertEquals(failing, dead.value());
        assertTrue(header(dead, KafkaOrders.REASON).contains("simulated failure of call 2 for " + failing),
                header(dead, KafkaOrders.REASON));
        for (String order : orders) {
            if (!order.equals(failing)) {
                assertEquals(List.of(), deadLettered(order), order + " is not dead-lettered");
            }
        }
    }

    @Test
    void duplicatesInsideABatchAndAcrossBatchesRunOnce() {
        String first = newOrderId();
        String second = newOrderId();
        KafkaBroker.current().send(List.of(order(first), order(first), order(second), order(first)));
        Await.until(WAIT, "both orders invoiced", () -> invoices(SCOPE, first) == 1 && invoices(SCOPE, second) == 1);
        Await.until(WAIT, "every copy decided", () -> decisions(first, "DUPLICATE") == 2);
        assertEquals(List.of(4L, 4L, 4L), polls(first), "the copies came in one poll");
        assertEquals(1, handlerCalls(SCOPE, first), "the batch handler got the first copy alone");

        String third = newOrderId();
        KafkaBroker.current().send(List.of(order(second), order(first), order(third)));
        Await.until(WAIT, "the third order invoiced", () -> invoices(SCOPE, third) == 1);
        Await.until(WAIT, "every copy decided", () -> decisions(first, "DUPLICATE") == 3
                && decisions(second, "DUPLICATE") == 1);
        assertEquals(List.of(3L), polls(third), "the second batch came in one poll");
        for (String order : List.of(first, second, third)) {
            assertEquals(1, invoices(SCOPE, order), order + "'s effect");
            assertEquals(1, markers(INBOX, SCOPE, order), order + "'s marker");
            assertEquals(1, handlerCalls(SCOPE, order), order + " ran once");
            assertEquals(1, decisions(order, "PROCESSED"), order);
        }
        assertEquals(List.of(), records(DEAD_LETTER_TOPIC).stream()
                .filter(record -> Stream.of(first, second, third).anyMatch(record.value()::equals)).toList());
    }

    private static ProducerRecord<String, String> order(String orderId) {
        return KafkaOrders.order(TOPIC, 0, orderId, orderId, null);
    }

    private static long decisions(String orderId, String outcome) {
        return TestDatabase.decisions(SCOPE, orderId, outcome);
    }

    /** The sizes of the polls that brought an order's records, one per record, in the order they came. */
    static List<Long> polls(String orderId) {
        List<Long> sizes = new ArrayList<>();
        try (var connection = TestDatabase.connect();
                var statement = TestDatabase.prepare(connection, "SELECT delivery FROM " + TestDatabase.SCHEMA
                        + ".handler_call WHERE consumer = ? AND order_id = ? ORDER BY at",
                        KafkaBatchOrdersConsumer.POLLS, orderId);
                var result = statement.executeQuery()) {
            while (result.next()) {
                sizes.add(result.getLong(1));
            }
        } catch (java.sql.SQLException e) {
            throw new IllegalStateException("Could not read the polls of " + orderId, e);
        }
        return sizes;
    }

    private static List<ConsumerRecord<String, String>> deadLettered(String orderId) {
        return records(DEAD_LETTER_TOPIC).stream().filter(record -> orderId.equals(record.value())).toList();
    }

    /** Every record of a topic's partition 0, read from its beginning to its end. */
    static List<ConsumerRecord<String, String>> records(String topic) {
        Properties settings = new Properties();
        settings.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, KafkaBroker.current().bootstrapServers());
        settings.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        TopicPartition partition = new TopicPartition(topic, 0);
        List<ConsumerRecord<String, String>> read = new ArrayList<>();
        try (KafkaConsumer<String, String> reader = new KafkaConsumer<>(settings, new StringDeserializer(),
                new StringDeserializer())) {
            reader.assign(List.of(partition));
            reader.seekToBeginning(List.of(partition));
            long end = reader.endOffsets(List.of(partition)).get(partition);
            long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
            while (reader.position(partition) < end) {
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException("Could not read " + topic + " to its end, " + end);
                }
                reader.poll(Duration.ofMillis(200)).forEach(read::add);
            }
        }
        return read;
    }

    private static String header(ConsumerRecord<String, String> record, String name) {
        Header header = record.headers().lastHeader(name);
        return header == null ? null : new String(header.value(), StandardCharsets.UTF_8);
    }
}
