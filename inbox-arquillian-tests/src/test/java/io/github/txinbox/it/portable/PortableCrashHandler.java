package io.github.txinbox.it.portable;

import io.github.txinbox.Inbox;
import io.github.txinbox.it.app.Invoice;
import io.github.txinbox.it.crash.CrashPoint;
import io.github.txinbox.it.messaging.Orders;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.jms.JMSException;
import jakarta.jms.Message;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;

/**
 * Handles a message of the queue {@code crash} in the listener's transaction, deduplicating by JMSMessageID in the
 * scope {@value #SCOPE}: records the call, writes the invoice and flushes it, and with the {@code behaviour}
 * {@code hang} stops there, in the handler, until the test kills the server.
 */
@ApplicationScoped
public class PortableCrashHandler {

    /** The inbox scope of this handler. */
    public static final String SCOPE = "killed";

    @PersistenceContext
    EntityManager entityManager;

    /**
     * Handles a message.
     *
     * @param message the message
     */
    @Inbox(scope = SCOPE)
    public void handle(Message message) throws JMSException {
        String orderId = message.getStringProperty(Orders.ORDER_ID);
        Orders.recordCall(SCOPE, orderId, message.getIntProperty("JMSXDeliveryCount"));
        entityManager.persist(new Invoice(SCOPE, orderId));
        entityManager.flush();
        if ("hang".equals(message.getStringProperty(Orders.BEHAVIOUR))) {
            CrashPoint.hangOnce(orderId);
        }
    }
}
