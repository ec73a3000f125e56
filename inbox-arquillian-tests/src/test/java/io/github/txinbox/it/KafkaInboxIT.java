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
import io.github.txinbox.Inbox;
import io.github.txinbox.it.harness.HeldMarker;
import io.github.txinbox.InboxSettings;
import io.github.txinbox.it.app.Invoice;
import io.github.txinbox.it.kafka.KafkaOrders;
import io.github.txinbox.it.kafka.KafkaOrdersConsumer;
import io.github.txinbox.it.messaging.Orders;
import io.github.txinbox.it.portable.DecisionLog;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;
import jakarta.transaction.Transactional;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.eclipse.microprofile.reactive.messaging.Incoming;
import org.eclipse.microprofile.reactive.messaging.Message;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The result rules for Kafka records consumed through MicroProfile Reactive Messaging, on the run's real Kafka broker:
 * an {@code @Incoming} method ({@link io.github.txinbox.it.kafka.KafkaOrdersConsumer}) hands each record to a
 * {@code @Transactional} bean whose method carries {@code @Inbox} with the id in a header ({@link KafkaOrders}), and
 * the connector commits the record's offset only after that transaction has committed. The channel reads the topic's
 * {@value #PARTITIONS} partitions in {@value #PARTITIONS} copies at once, and nacked records go to the dead-letter
 * topic {@value #DEAD_LETTER_TOPIC}. A second channel reads its records' keys as {@code ByteBuffer}s, and the inbox
 * takes the key as the id ({@link KeyedOrders}).
 */
@Tag("kafka")
@ExtendWith(ArquillianExtension.class)
class KafkaInboxIT {

    private static final Duration WAIT = Duration.ofSeconds(60);

    private static final String SCOPE = KafkaOrders.SCOPE;

    private static final String TOPIC = "kafka-orders";

    private static final String DEAD_LETTER_TOPIC = "kafka-orders-dead";

    private static final String GROUP = "txinbox-it-kafka";

    private static final int PARTITIONS = 4;

    /** Whether the run's connector is Open Liberty's, whose consumer writes the dead letters itself. */
    private static final boolean LIBERTY = Deployments.libertyKafka();

    /** The channel, topic and group of {@link KeyedOrdersConsumer}, whose keys are read as {@code ByteBuffer}. */
    private static final String KEYED = "kafka-keyed";

    /**
     * Handles a record of {@link KeyedOrdersConsumer} in a transaction of its own, deduplicating by the record's key,
     * which the channel deserializes as a {@code ByteBuffer}, in the scope {@value #KEYED}.
     */
    @ApplicationScoped
    public static class KeyedOrders {

        @PersistenceContext
        EntityManager entityManager;

        /**
         * Handles a record: records the call, then writes the invoice of the order in its value.
         *
         * @param record the record
         */
        @Transactional
        @Inbox(scope = KEYED, key = Inbox.KAFKA_RECORD_KEY)
        public void handle(ConsumerRecord<ByteBuffer, String> record) {
            Orders.recordCall(KEYED, record.value(), 1);
            entityManager.persist(new Invoice(KEYED, record.value()));
        }
    }

    /** The consumer of the channel {@value #KEYED} on SmallRye's connector, shaped as {@code KafkaOrdersConsumer}. */
    @ApplicationScoped
    public static class KeyedOrdersConsumer {

        @Inject
        KeyedOrders orders;

        /**
         * Handles a record.
         *
         * @param record the record
         */
        @Incoming(KEYED)
        public void consume(ConsumerRecord<ByteBuffer, String> record) {
            orders.handle(record);
        }
    }

    /**
     * The consumer of the channel {@value #KEYED} on Open Liberty's connector, shaped as
     * {@code LibertyKafkaOrdersConsumer} without its dead letters: no record of this channel fails.
     */
    @ApplicationScoped
    public static class LibertyKeyedOrdersConsumer {

        @Inject
        KeyedOrders orders;

        /**
         * Handles a record.
         *
         * @param message the message of the record
         * @return the acknowledgement
         */
        @Incoming(KEYED)
        @SuppressWarnings("unchecked")
        public CompletionStage<Void> consume(Message<String> message) {
            orders.handle(message.unwrap(ConsumerRecord.class));
            return message.ack();
        }
    }

    private KafkaConsumer<String, String> deadLetterReader;

    private final List<ConsumerRecord<String, String>> deadLettersRead = new ArrayList<>();

    /**
     * The deployment, whose channel reads {@value #TOPIC}. The topics are created first, with their partitions, so
     * that the consumers find them when the deployment starts.
     */
    @Deployment(testable = false)
    static WebArchive deployment() {
        KafkaBroker broker = KafkaBroker.current();
        broker.createTopicIfAbsent(TOPIC, PARTITIONS);
        broker.createTopicIfAbsent(DEAD_LETTER_TOPIC, 1);
        broker.createTopicIfAbsent(KEYED, 1);
        WebArchive war = Deployments.withKafkaOrders(Deployments.war(KafkaInboxIT.class))
                .addClasses(DecisionLog.class, Orders.class);
        Deployments.withConsumerFor(war, KeyedOrdersConsumer.class, LibertyKeyedOrdersConsumer.class);
        return Deployments.withKafkaChannels(war,
                // The claim's bound of the held-marker test: a held record comes back in seconds, not the default's.
                InboxSettings.CLAIM_MAX_WAIT + "=" + HeldMarker.CLAIM_MAX_WAIT + "\n",
                Deployments.kafkaChannel(KafkaOrdersConsumer.CHANNEL, TOPIC, GROUP, PARTITIONS, DEAD_LETTER_TOPIC,
                        Map.of()),
                Deployments.kafkaChannel(KEYED, KEYED, KEYED, 1, DEAD_LETTER_TOPIC,
                        Map.of("key.deserializer", "org.apache.kafka.common.serialization.ByteBufferDeserializer")));
    }

    /**
     * Waits until the channel's copies have joined the group and its rebalances are over. A record read before the last
     * rebalance can be read again by its partition's next consumer, and would count a decision more.
     */
    @BeforeEach
    void groupSettled() {
        int members = Deployments.kafkaCopies(PARTITIONS);
        Await.until(WAIT, "the group " + GROUP + " to settle with " + members + " members",
                () -> KafkaBroker.current().settled(GROUP, members));
    }

    /** Every record, processed, duplicate or dead-lettered, is acknowledged: its offset is committed. */
    @AfterEach
    void everyRecordCommitted() {
        Await.until(WAIT, "the group " + GROUP + " to commit every record of " + TOPIC,
                () -> KafkaBroker.current().committed(GROUP, TOPIC).equals(KafkaBroker.current().ends(TOPIC)));
        assertEquals(0, TestDatabase.preparedTransactions(), "PostgreSQL holds no prepared transaction");
    }

    /** Sends copies of an order, the copy i to partition i modulo the partitions; a null header is left out. */
    private static void send(String orderId, String messageId, String behaviour, int copies) {
        KafkaBroker.current().send(IntStream.range(0, copies)
                .mapToObj(copy -> KafkaOrders.order(TOPIC, copy % PARTITIONS, orderId, messageId, behaviour))
                .toList());
    }

    private static long decisions(String messageId, String outcome) {
        return TestDatabase.decisions(SCOPE, messageId, outcome);
    }

    /** Waits until the copies of a record are decided, processed or duplicate, and checks that none came twice. */
    private static void awaitDecided(String messageId, int copies, String what) {
        Await.until(WAIT, copies + " decisions on " + what,
                () -> decisions(messageId, "PROCESSED") + decisions(messageId, "DUPLICATE") >= copies);
        assertEquals(copies, decisions(messageId, "PROCESSED") + decisions(messageId, "DUPLICATE"),
                "decisions on " + what + ": each copy is read once");
    }

    @Test
    void threeCopiesOfOneRecordAreInvoicedOnceAndAllCommitted() {
        String orderId = newOrderId();
        send(orderId, orderId, null, 3);
        awaitDecided(orderId, 3, orderId);

        assertEquals(1, decisions(orderId, "PROCESSED"));
        assertEquals(2, decisions(orderId, "DUPLICATE"));
        assertEquals(1, invoices(SCOPE, orderId));
        assertEquals(1, markers(INBOX, SCOPE, orderId));
        assertEquals(1, handlerCalls(SCOPE, orderId), "the handler ran once");
    }

    @Test
    void twentyCopiesOfOneRecordAtOnceAreInvoicedOnce() {
        String orderId = newOrderId();
        send(orderId, orderId, null, 20);
        awaitDecided(orderId, 20, orderId);

        assertEquals(1, decisions(orderId, "PROCESSED"));
        assertEquals(19, decisions(orderId, "DUPLICATE"));
        assertEquals(1, invoices(SCOPE, orderId));
        assertEquals(1, handlerCalls(SCOPE, orderId), "the handler ran once");
        assertEquals(0, deadLettered(orderId));
    }

    @Test
    void aFailureRollsBackAndTheRecordGoesToTheDeadLetterTopic() {
        String orderId = newOrderId();
        send(orderId, orderId, "fail-always", 1);
        Await.until(WAIT, orderId + " in " + DEAD_LETTER_TOPIC, () -> deadLettered(orderId) == 1);

        ConsumerRecord<String, String> dead = deadLetters().stream()
                .filter(record -> orderId.equals(header(record, KafkaOrders.MESSAGE_ID))).findFirst().orElseThrow();
        assertDeadLetteredByTheConsumer(dead, "simulated failure of call 1 for " + orderId);
        assertEquals(1, decisions(orderId, "FAILURE"));
        assertEquals(1, handlerCalls(SCOPE, orderId), "the dead-letter strategy does not redeliver");
        assertEquals(0, invoices(SCOPE, orderId), "the invoice rolled back");
        assertEquals(0, markers(INBOX, SCOPE, orderId), "the marker rolled back");
        afterwardsTheChannelStillConsumes();
    }

    @Test
    void aRetryRollsBackAndTheRecordGoesToTheDeadLetterTopic() {
        String orderId = newOrderId();
        send(orderId, orderId, "retry", 1);
        Await.until(WAIT, orderId + " in " + DEAD_LETTER_TOPIC, () -> deadLettered(orderId) == 1);

        assertEquals(1, decisions(orderId, "RETRY"));
        assertEquals(0, invoices(SCOPE, orderId));
        assertEquals(0, markers(INBOX, SCOPE, orderId));
        afterwardsTheChannelStillConsumes();
    }

    /**
     * A record dead-lettered by a failure is replayed, as kafka.md says to once its cause is gone: its marker rolled
     * back with the failure, so the replay is processed, once.
     */
    @Test
    void aRecordReplayedFromTheDeadLetterTopicIsProcessedOnce() {
        String orderId = newOrderId();
        send(orderId, orderId, "fail-first", 1);
        Await.until(WAIT, orderId + " in " + DEAD_LETTER_TOPIC, () -> deadLettered(orderId) == 1);
        assertEquals(0, markers(INBOX, SCOPE, orderId), "the marker rolled back with the failure");

        ConsumerRecord<String, String> dead = deadLetters().stream()
                .filter(record -> orderId.equals(header(record, KafkaOrders.MESSAGE_ID))).findFirst().orElseThrow();
        ProducerRecord<String, String> replay = new ProducerRecord<>(TOPIC, 0, dead.key(), dead.value());
        dead.headers().forEach(header -> replay.headers().add(header));
        KafkaBroker.current().send(List.of(replay, replay));
        Await.until(WAIT, "the replays of " + orderId + " decided",
                () -> decisions(orderId, "PROCESSED") + decisions(orderId, "DUPLICATE") == 2);

        assertEquals(1, decisions(orderId, "FAILURE"));
        assertEquals(1, decisions(orderId, "PROCESSED"));
        assertEquals(1, decisions(orderId, "DUPLICATE"), "the replay sent twice is a duplicate the second time");
        assertEquals(1, invoices(SCOPE, orderId), "one effect");
        assertEquals(1, markers(INBOX, SCOPE, orderId));
        assertEquals(2, handlerCalls(SCOPE, orderId), "the failed call and the replay's");
    }

    /**
     * A record whose marker another transaction holds past the claim's bound (2 s)
     * is {@code HELD}: it rolls back as a retry, and under {@code dead-letter-queue} goes to the dead-letter topic at
     * once, as kafka.md says, while the other transaction decides the order.
     */
    @Test
    void aRecordWhoseMarkerIsHeldIsDeadLetteredAsARetry() {
        String orderId = newOrderId();
        try (HeldMarker held = HeldMarker.hold(SCOPE, SCOPE, orderId)) {
            send(orderId, orderId, null, 1);
            Await.until(WAIT, orderId + " in " + DEAD_LETTER_TOPIC, () -> deadLettered(orderId) == 1);
            assertEquals(1, decisions(orderId, "HELD"));
            assertEquals(0, handlerCalls(SCOPE, orderId), "the handler did not run");
            held.commit();
        }
        assertEquals(1, invoices(SCOPE, orderId), "the holder's invoice alone");
        assertEquals(1, markers(INBOX, SCOPE, orderId));
        afterwardsTheChannelStillConsumes();
    }

    @Test
    void aRecordWithoutItsIdHeaderIsNotProcessedAndGoesToTheDeadLetterTopic() {
        String orderId = newOrderId();
        send(orderId, null, null, 1);
        Await.until(WAIT, orderId + " in " + DEAD_LETTER_TOPIC, () -> deadLetteredOrders(orderId) == 1);

        assertEquals(0, handlerCalls(SCOPE, orderId), "the handler did not run");
        assertEquals(0, invoices(SCOPE, orderId));
        afterwardsTheChannelStillConsumes();
    }

    @Test
    void aRecordWhoseIdHeaderIsNotUtf8IsNotProcessedAndGoesToTheDeadLetterTopic() {
        String orderId = newOrderId();
        ProducerRecord<String, String> record = new ProducerRecord<>(TOPIC, 0, orderId, orderId);
        // Decoded with replacement, these bytes would be an id that other invalid bytes share.
        record.headers().add(KafkaOrders.MESSAGE_ID, new byte[] {'o', 'r', 'd', (byte) 0xff, '1'});
        KafkaBroker.current().send(List.of(record));
        Await.until(WAIT, orderId + " in " + DEAD_LETTER_TOPIC, () -> deadLetteredOrders(orderId) == 1);

        ConsumerRecord<String, String> dead = deadLetters().stream().filter(each -> orderId.equals(each.value()))
                .findFirst().orElseThrow();
        assertDeadLetteredByTheConsumer(dead, "not valid UTF-8");
        assertEquals(0, handlerCalls(SCOPE, orderId), "the handler did not run");
        assertEquals(0, invoices(SCOPE, orderId));
        afterwardsTheChannelStillConsumes();
    }

    @Test
    void byteBufferKeysOfOneLengthAreReadByTheirBytesAsTwoIds() {
        // Two ids of one length: read by toString(), a ByteBuffer's is its position, limit and capacity, the same.
        String first = newOrderId();
        String second = newOrderId();
        assertEquals(first.length(), second.length());
        KafkaBroker.current().send(List.of(new ProducerRecord<>(KEYED, 0, first, first),
                new ProducerRecord<>(KEYED, 0, second, second)));
        Await.until(WAIT, "both orders of " + KEYED + " to be processed",
                () -> TestDatabase.decisions(KEYED, first, "PROCESSED") + TestDatabase.decisions(KEYED, second,
                        "PROCESSED") == 2);

        assertEquals(1, invoices(KEYED, first));
        assertEquals(1, invoices(KEYED, second));
        assertEquals(1, markers(INBOX, KEYED, first), "the key's bytes are the id");
        assertEquals(1, markers(INBOX, KEYED, second));
    }

    /** A nack leaves the channel consuming: a record sent afterwards to every partition is processed. */
    private static void afterwardsTheChannelStillConsumes() {
        String orderId = newOrderId();
        send(orderId, orderId, null, PARTITIONS);
        awaitDecided(orderId, PARTITIONS, orderId + ", sent after the nack");
        assertEquals(1, invoices(SCOPE, orderId));
    }

    /**
     * The dead-letter record says why. On SmallRye's connector the reason ({@code dead-letter-reason}) names the
     * consumer's method that threw: the handler's own failure is one level deeper than SmallRye's cause header reaches
     * (the method is called reflectively); the server's log has it, and the inbox's decision. On Open Liberty's, the
     * consumer writes the dead letter itself, with the handler's failure as the reason.
     *
     * @param dead      the dead letter
     * @param onLiberty what the handler's failure says, which the reason holds on Open Liberty
     */
    private static void assertDeadLetteredByTheConsumer(ConsumerRecord<String, String> dead, String onLiberty) {
        String reason = header(dead, "dead-letter-reason");
        String expected = LIBERTY ? onLiberty : KafkaOrdersConsumer.class.getName() + "#consume";
        assertTrue(reason != null && reason.contains(expected), "the reason says " + expected + ": " + reason);
    }

    /** The dead-letter topic's records whose message-id header is the given one. */
    private long deadLettered(String messageId) {
        return deadLetters().stream().filter(record -> messageId.equals(header(record, KafkaOrders.MESSAGE_ID)))
                .count();
    }

    /** The dead-letter topic's records of an order (their value). */
    private long deadLetteredOrders(String orderId) {
        return deadLetters().stream().filter(record -> orderId.equals(record.value())).count();
    }

    /**
     * Reads the dead-letter topic from its start, without a group, with one consumer for the whole test: each call
     * reads what came since the last.
     *
     * @return every record of the topic so far
     */
    private List<ConsumerRecord<String, String>> deadLetters() {
        TopicPartition partition = new TopicPartition(DEAD_LETTER_TOPIC, 0);
        if (deadLetterReader == null) {
            Properties settings = new Properties();
            settings.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, KafkaBroker.current().bootstrapServers());
            settings.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class.getName());
            settings.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class.getName());
            settings.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
            deadLetterReader = new KafkaConsumer<>(settings);
            deadLetterReader.assign(List.of(partition));
            deadLetterReader.seekToBeginning(List.of(partition));
        }
        long end = deadLetterReader.endOffsets(List.of(partition)).get(partition);
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (deadLetterReader.position(partition) < end && System.nanoTime() < deadline) {
            deadLetterReader.poll(Duration.ofMillis(200)).forEach(deadLettersRead::add);
        }
        return deadLettersRead;
    }

    @AfterEach
    void closeDeadLetterReader() {
        if (deadLetterReader != null) {
            deadLetterReader.close();
        }
    }

    private static String header(ConsumerRecord<String, String> record, String name) {
        Header header = record.headers().lastHeader(name);
        return header == null || header.value() == null ? null : new String(header.value(), StandardCharsets.UTF_8);
    }
}
