package io.github.txinbox.it.kafka;

import io.github.txinbox.Inbox;
import io.github.txinbox.InboxRetryException;
import io.github.txinbox.it.app.Invoice;
import io.github.txinbox.it.app.TestDatabase;
import io.github.txinbox.it.crash.CrashPoint;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;
import jakarta.transaction.Transactional;
import java.nio.charset.StandardCharsets;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.header.Header;

/**
 * Handles an order record of {@link KafkaOrdersConsumer} in a transaction of its own, deduplicating by the record's
 * header {@value #MESSAGE_ID} in the scope {@value #SCOPE}. The record's value is the order id. It records every call
 * outside the transaction, writes the invoice in the transaction, and then misbehaves as the header
 * {@value #BEHAVIOUR} asks: {@code retry} returns a retry, {@code fail-first} fails its first call,
 * {@code fail-always} every call.
 */
@ApplicationScoped
public class KafkaOrders {

    /** The inbox scope, also the consumer name of the invoices and calls. */
    public static final String SCOPE = "kafka-orders";

    /** The header holding the message id, set by the producer. */
    public static final String MESSAGE_ID = "message-id";

    /** The header that asks the handler to misbehave. */
    public static final String BEHAVIOUR = "behaviour";

    /** The header of a dead letter that holds the handler's failure. */
    public static final String REASON = "dead-letter-reason";

    @PersistenceContext
    EntityManager entityManager;

    /**
     * Handles an order record.
     *
     * @param record the record
     */
    @Transactional
    @Inbox(scope = SCOPE, key = MESSAGE_ID)
    public void handle(ConsumerRecord<String, String> record) {
        process(entityManager, record);
    }

    /**
     * Processes an order record in the caller's transaction, as {@link #handle} does: records the call outside the
     * transaction, writes the invoice, and misbehaves as the record's {@value #BEHAVIOUR} header asks; {@code
     * hang-in-handler} hangs before the commit until the test kills the server ({@link CrashPoint#hangOnce}).
     *
     * @param entityManager the caller's persistence context
     * @param record        the record
     */
    public static void process(EntityManager entityManager, ConsumerRecord<String, String> record) {
        String orderId = record.value();
        int call = (int) TestDatabase.handlerCalls(SCOPE, orderId) + 1;
        TestDatabase.update("INSERT INTO " + TestDatabase.SCHEMA
                + ".handler_call (consumer, order_id, delivery) VALUES (?, ?, ?)", SCOPE, orderId, call);
        entityManager.persist(new Invoice(SCOPE, orderId));
        String behaviour = header(record, BEHAVIOUR);
        if ("hang-in-handler".equals(behaviour)) {
            entityManager.flush(); // the invoice written, the marker too: only the commit is missing
            CrashPoint.hangOnce(orderId);
        }
        if ("retry".equals(behaviour)) {
            throw new InboxRetryException("stock for " + orderId + " not yet available");
        }
        if ("fail-always".equals(behaviour) || call == 1 && "fail-first".equals(behaviour)) {
            throw new IllegalStateException("simulated failure of call " + call + " for " + orderId);
        }
    }

    /**
     * Builds an order record for the tests to send: its key and value are the order id.
     *
     * @param topic     the topic
     * @param partition the partition
     * @param orderId   the order
     * @param messageId the {@value #MESSAGE_ID} header, or {@code null} for none
     * @param behaviour the {@value #BEHAVIOUR} header, or {@code null} for none
     * @return the record
     */
    public static ProducerRecord<String, String> order(String topic, int partition, String orderId, String messageId,
            String behaviour) {
        ProducerRecord<String, String> record = new ProducerRecord<>(topic, partition, orderId, orderId);
        if (messageId != null) {
            record.headers().add(MESSAGE_ID, messageId.getBytes(StandardCharsets.UTF_8));
        }
        if (behaviour != null) {
            record.headers().add(BEHAVIOUR, behaviour.getBytes(StandardCharsets.UTF_8));
        }
        return record;
    }

    /**
     * Builds the dead letter of a record whose handler failed, as the consumers write it: its key, value and headers,
     * and the failure in the header {@value #REASON}.
     *
     * @param topic   the dead-letter topic
     * @param record  the record
     * @param failure what the handler threw
     * @return the dead letter
     */
    public static ProducerRecord<String, String> deadLetter(String topic, ConsumerRecord<String, String> record,
            Throwable failure) {
        ProducerRecord<String, String> dead = new ProducerRecord<>(topic, record.key(), record.value());
        record.headers().forEach(header -> dead.headers().add(header));
        dead.headers().add(REASON, String.valueOf(failure).getBytes(StandardCharsets.UTF_8));
        return dead;
    }

    private static String header(ConsumerRecord<String, String> record, String name) {
        Header header = record.headers().lastHeader(name);
        return header == null ? null : new String(header.value(), StandardCharsets.UTF_8);
    }
}
