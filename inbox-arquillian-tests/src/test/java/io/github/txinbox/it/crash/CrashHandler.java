package io.github.txinbox.it.crash;

import io.github.txinbox.Inbox;
import io.github.txinbox.it.app.Invoice;
import io.github.txinbox.it.messaging.Orders;
import jakarta.annotation.Resource;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.jms.JMSException;
import jakarta.jms.Message;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;
import jakarta.transaction.RollbackException;
import jakarta.transaction.SystemException;
import jakarta.transaction.TransactionManager;

/**
 * Handles a message of the queue {@code crash} in the listener's transaction, deduplicating by JMSMessageID in the
 * scope {@value #SCOPE}: records the call, writes the invoice and flushes it, then stops where the message's
 * {@code behaviour} asks: {@code hang} here in the handler, {@code hang-in-prepare} in the first phase of the commit
 * (a {@link CrashPoint} enlisted after the broker and the database).
 */
@ApplicationScoped
public class CrashHandler {

    /** The inbox scope of this handler. */
    public static final String SCOPE = "crash";

    @PersistenceContext
    EntityManager entityManager;

    @Resource(lookup = "java:appserver/TransactionManager")
    TransactionManager transactionManager;

    /**
     * Handles a message.
     *
     * @param message the message
     */
    @Inbox(scope = SCOPE)
    public void handle(Message message) throws JMSException, RollbackException, SystemException {
        String orderId = message.getStringProperty(Orders.ORDER_ID);
        Orders.recordCall(SCOPE, orderId, message.getIntProperty("JMSXDeliveryCount"));
        entityManager.persist(new Invoice(SCOPE, orderId));
        entityManager.flush();
        String behaviour = message.getStringProperty(Orders.BEHAVIOUR);
        if ("hang".equals(behaviour)) {
            CrashPoint.hangOnce(orderId);
        } else if ("hang-in-prepare".equals(behaviour)) {
            transactionManager.getTransaction().enlistResource(new CrashPoint(orderId, CrashPoint.Phase.PREPARE));
        }
    }
}
