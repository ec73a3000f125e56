package io.github.txinbox.it.messaging;

import io.github.txinbox.InboxResult;
import io.github.txinbox.InboxRetryException;
import io.github.txinbox.it.app.Invoice;
import io.github.txinbox.it.app.TestDatabase;
import jakarta.annotation.Resource;
import jakarta.ejb.EJBException;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.spi.CDI;
import jakarta.jms.JMSException;
import jakarta.jms.Message;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;
import jakarta.transaction.TransactionSynchronizationRegistry;
import java.util.concurrent.TimeUnit;

/**
 * The handler behind the test consumers. It records every call outside the transaction (so rolled-back attempts
 * count too), writes the invoice in the transaction, and then misbehaves as the message's {@code behaviour} property
 * asks, on the first delivery only: {@code retry-first} throws {@link InboxRetryException}, {@code fail-first}
 * throws an ordinary exception, {@code stall-first} publishes its database connection's backend pid and waits until
 * the test releases it (meanwhile the test kills that connection), {@code fail-commit-first} writes a row that
 * breaks a deferred foreign key, so that the commit itself fails, {@code rollback-only-first} marks the transaction for
 * rollback and returns, {@code catch-nested-first} calls {@link FailingStep} and swallows its failure. On every
 * delivery, {@code slow} takes 100 ms in the transaction.
 */
@ApplicationScoped
public class Orders {

    /** The message property naming the order; also the inbox key of the consumers that use {@code key}. */
    public static final String ORDER_ID = "orderId";

    /** The message property that asks the handler to misbehave. */
    public static final String BEHAVIOUR = "behaviour";

    @PersistenceContext
    private EntityManager entityManager;

    @Resource(lookup = "java:comp/TransactionSynchronizationRegistry")
    private TransactionSynchronizationRegistry transactions;

    /**
     * Handles an order message for a consumer.
     *
     * @param consumer the consumer's name, written to the invoice
     * @param message  the message
     */
    public void handle(String consumer, Message message) throws JMSException {
        String orderId = message.getStringProperty(ORDER_ID);
        int delivery = message.getIntProperty("JMSXDeliveryCount");
        recordCall(consumer, orderId, delivery);
        entityManager.persist(new Invoice(consumer, orderId));
        // The invoice reaches the database now, so that whatever follows rolls back real work.
        entityManager.flush();
        String behaviour = message.getStringProperty(BEHAVIOUR);
        if (delivery == 1 && "retry-first".equals(behaviour)) {
            throw new InboxRetryException("stock for " + orderId + " not yet available");
        }
        if (delivery == 1 && "fail-first".equals(behaviour)) {
            throw new IllegalStateException("simulated failure of the first delivery of " + orderId);
        }
        if ("slow".equals(behaviour)) {
            pause(100);
        }
        if (delivery == 1 && "stall-first".equals(behaviour)) {
            stall(orderId);
        }
        if (delivery == 1 && "rollback-only-first".equals(behaviour)) {
            // As a handler does that decides its work must not commit, and returns.
            transactions.setRollbackOnly();
        }
        if (delivery == 1 && "catch-nested-first".equals(behaviour)) {
            // As a handler does that catches the failure of a step it called: the step's container marked the
            // transaction for rollback on the way out.
            try {
                CDI.current().select(FailingStep.class).get().fail(orderId);
                throw new IllegalStateException("the failing step returned");
            } catch (EJBException expected) {
                // Swallowed, as the handler under test does.
            }
        }
        if (delivery == 1 && "fail-commit-first".equals(behaviour)) {
            // Checked only when the transaction commits (or prepares, under XA).
            entityManager.createNativeQuery("INSERT INTO " + TestDatabase.SCHEMA
                    + ".commit_guard (order_id) VALUES (?1)").setParameter(1, orderId).executeUpdate();
        }
    }

    private static void pause(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private void stall(String orderId) {
        Number pid = (Number) entityManager.createNativeQuery("SELECT pg_backend_pid()").getSingleResult();
        TestDatabase.update("INSERT INTO " + TestDatabase.SCHEMA + ".handler_stall (order_id, pid) VALUES (?, ?)",
                orderId, pid.intValue());
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (System.nanoTime() < deadline && TestDatabase.queryLong("SELECT count(*) FROM " + TestDatabase.SCHEMA
                + ".handler_stall WHERE order_id = ? AND released", orderId) == 0) {
            try {
                Thread.sleep(50);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    /**
     * Handles an order message as {@link #handle} does, for a handler that returns its result: {@code
     * retry-returned-first} returns a retry on the first delivery, after the invoice is written.
     *
     * @param consumer the consumer's name, written to the invoice
     * @param message  the message
     * @return what became of it
     */
    public InboxResult handleReturning(String consumer, Message message) throws JMSException {
        handle(consumer, message);
        if (message.getIntProperty("JMSXDeliveryCount") == 1
                && "retry-returned-first".equals(message.getStringProperty(BEHAVIOUR))) {
            return InboxResult.retry("order " + message.getStringProperty(ORDER_ID) + " asked for a retry");
        }
        return InboxResult.processed();
    }

    /**
     * Creates the invoice of an order, in the caller's transaction.
     *
     * @param consumer the consumer's name
     * @param orderId  the order
     */
    public void invoice(String consumer, String orderId) {
        entityManager.persist(new Invoice(consumer, orderId));
    }

    /**
     * Records a handler call on a connection of its own, committed at once whatever becomes of the transaction.
     *
     * @param consumer the consumer's name
     * @param orderId  the order
     * @param delivery the delivery count
     */
    public static void recordCall(String consumer, String orderId, int delivery) {
        TestDatabase.update("INSERT INTO " + TestDatabase.SCHEMA
                + ".handler_call (consumer, order_id, delivery) VALUES (?, ?, ?)", consumer, orderId, delivery);
    }
}
