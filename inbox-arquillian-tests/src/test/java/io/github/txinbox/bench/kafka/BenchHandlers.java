package io.github.txinbox.bench.kafka;

import io.github.txinbox.Inbox;
import io.github.txinbox.it.app.Invoice;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;
import jakarta.transaction.Transactional;
import org.apache.kafka.clients.consumer.ConsumerRecord;

/** The two handlers: one invoice row per record in a transaction of its own, with the inbox and without. */
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
}
