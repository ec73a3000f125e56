package io.github.txinbox.bench.kafka;

import io.github.txinbox.Inbox;
import io.github.txinbox.InboxSettings;
import io.github.txinbox.it.app.Invoice;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;
import jakarta.transaction.Transactional;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.header.Header;

/**
 * The handlers: one invoice row per record in a transaction of its own, with the inbox, without it, and with a marker
 * written by hand; and a poll's invoices in one transaction, with the inbox and without it.
 */
public final class BenchHandlers {

    private BenchHandlers() {
    }

    /** With {@code @Inbox}, the id in the header {@code message-id}. */
    @ApplicationScoped
    public static class WithInbox {

        /** The invoices' consumer name. */
        public static final String NAME = "kafka-with-inbox";

        @PersistenceContext
        EntityManager entityManager;

        /**
         * Writes the record's invoice.
         *
         * @param record the record, whose value is the order id
         */
        @Transactional
        @Inbox(scope = NAME, key = "message-id")
        public void handle(ConsumerRecord<String, String> record) {
            entityManager.persist(new Invoice(NAME, record.value()));
        }
    }

    /** A batch (a poll) in one transaction with {@code @Inbox}: one claim for the batch, an invoice per record. */
    @ApplicationScoped
    public static class BatchWithInbox {

        /** The invoices' consumer name. */
        public static final String NAME = "kafka-batch-with-inbox";

        @PersistenceContext
        EntityManager entityManager;

        /**
         * Writes the invoices of the records not processed before.
         *
         * @param records the new records, whose values are the order ids
         */
        @Transactional
        @Inbox(scope = NAME, key = "message-id")
        public void handle(List<ConsumerRecord<String, String>> records) {
            for (ConsumerRecord<String, String> record : records) {
                entityManager.persist(new Invoice(NAME, record.value()));
            }
        }
    }

    /** The batch's baseline: the same poll in one transaction, without the inbox. */
    @ApplicationScoped
    public static class BatchWithoutInbox {

        /** The invoices' consumer name. */
        public static final String NAME = "kafka-batch-without-inbox";

        @PersistenceContext
        EntityManager entityManager;

        /**
         * Writes the records' invoices.
         *
         * @param records the records, whose values are the order ids
         */
        @Transactional
        public void handle(List<ConsumerRecord<String, String>> records) {
            for (ConsumerRecord<String, String> record : records) {
                entityManager.persist(new Invoice(NAME, record.value()));
            }
        }
    }

    /** The baseline: the same, without the inbox. */
    @ApplicationScoped
    public static class WithoutInbox {

        /** The invoices' consumer name. */
        public static final String NAME = "kafka-without-inbox";

        @PersistenceContext
        EntityManager entityManager;

        /**
         * Writes the record's invoice.
         *
         * @param record the record, whose value is the order id
         */
        @Transactional
        public void handle(ConsumerRecord<String, String> record) {
            entityManager.persist(new Invoice(NAME, record.value()));
        }
    }

    /**
     * The floor of what a marker can cost: the handler without the inbox, plus the marker's bare
     * {@code INSERT ... ON CONFLICT DO NOTHING} into the inbox table, written by hand through the same
     * {@code EntityManager} in the same transaction (no bound on a held marker, no interceptor, no checks).
     */
    @ApplicationScoped
    public static class MarkerByHand {

        /** The invoices' consumer name, and the markers' scope. */
        public static final String NAME = "kafka-marker-by-hand";

        @PersistenceContext
        EntityManager entityManager;

        @Inject
        InboxSettings settings;

        /**
         * Writes the record's marker, then its invoice when the marker is new.
         *
         * @param record the record, whose value is the order id
         */
        @Transactional
        public void handle(ConsumerRecord<String, String> record) {
            Header id = record.headers().lastHeader("message-id");
            int inserted = entityManager.createNativeQuery("INSERT INTO " + settings.table().quotedName()
                    + " (scope, message_id, processed_at) VALUES (?1, ?2, now()) "
                    + "ON CONFLICT (scope, message_id) DO NOTHING")
                    .setParameter(1, NAME).setParameter(2, new String(id.value(), StandardCharsets.UTF_8))
                    .executeUpdate();
            if (inserted == 1) {
                entityManager.persist(new Invoice(NAME, record.value()));
            }
        }
    }
}
