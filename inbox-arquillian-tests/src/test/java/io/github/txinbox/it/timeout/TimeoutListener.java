package io.github.txinbox.it.timeout;

import io.github.txinbox.Inbox;
import io.github.txinbox.it.messaging.Orders;
import jakarta.annotation.Resource;
import jakarta.ejb.ActivationConfigProperty;
import jakarta.ejb.MessageDriven;
import jakarta.inject.Inject;
import jakarta.jms.JMSException;
import jakarta.jms.Message;
import jakarta.jms.MessageListener;
import jakarta.transaction.Status;
import jakarta.transaction.TransactionSynchronizationRegistry;
import java.util.concurrent.TimeUnit;

/**
 * The consumer of the queue {@code timeout}, whose transaction timeout (2 s) is set in WEB-INF/glassfish-ejb-jar.xml.
 * On a message's first delivery the handler, having written the invoice, waits until the transaction manager marks
 * the transaction for rollback (at most {@value #MAX_WAIT_SECONDS} s) and records {@value #EXPIRED} as a call when it
 * did.
 */
@MessageDriven(name = "TimeoutListener", activationConfig = {
        @ActivationConfigProperty(propertyName = "resourceAdapter", propertyValue = "test-artemis-rar"),
        @ActivationConfigProperty(propertyName = "destinationType", propertyValue = "jakarta.jms.Queue"),
        @ActivationConfigProperty(propertyName = "destination", propertyValue = "timeout"),
        @ActivationConfigProperty(propertyName = "useJNDI", propertyValue = "false"),
        @ActivationConfigProperty(propertyName = "maxSession", propertyValue = "2")})
public class TimeoutListener implements MessageListener {

    /** The inbox scope, and the consumer name of the handler's calls. */
    public static final String SCOPE = "timeout";

    /** The consumer name under which the handler records that it saw its transaction time out. */
    public static final String EXPIRED = "timeout-expired";

    /** How long the first delivery waits for the timeout at most. */
    public static final int MAX_WAIT_SECONDS = 40;

    @Inject
    Orders orders;

    @Resource
    TransactionSynchronizationRegistry registry;

    @Override
    @Inbox(scope = SCOPE, key = Orders.ORDER_ID)
    public void onMessage(Message message) {
        try {
            orders.handle(SCOPE, message);
            int delivery = message.getIntProperty("JMSXDeliveryCount");
            if (delivery == 1) {
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(MAX_WAIT_SECONDS);
                while (registry.getTransactionStatus() == Status.STATUS_ACTIVE && System.nanoTime() < deadline) {
                    Thread.sleep(100);
                }
                if (registry.getTransactionStatus() == Status.STATUS_MARKED_ROLLBACK) {
                    Orders.recordCall(EXPIRED, message.getStringProperty(Orders.ORDER_ID), delivery);
                }
            }
        } catch (JMSException e) {
            throw new IllegalStateException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
