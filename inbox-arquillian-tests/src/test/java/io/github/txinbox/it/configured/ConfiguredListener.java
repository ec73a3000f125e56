package io.github.txinbox.it.configured;

import io.github.txinbox.Inbox;
import io.github.txinbox.it.messaging.Orders;
import jakarta.ejb.ActivationConfigProperty;
import jakarta.ejb.MessageDriven;
import jakarta.inject.Inject;
import jakarta.jms.JMSException;
import jakarta.jms.Message;
import jakarta.jms.MessageListener;

/**
 * Invoices the orders of the queue {@code configured}. Its {@code @Inbox} names no key: the message id is the
 * property named by the setting {@code txinbox.key}.
 */
@Inbox(scope = ConfiguredListener.SCOPE)
@MessageDriven(activationConfig = {
        @ActivationConfigProperty(propertyName = "resourceAdapter", propertyValue = "test-artemis-rar"),
        @ActivationConfigProperty(propertyName = "destinationType", propertyValue = "jakarta.jms.Queue"),
        @ActivationConfigProperty(propertyName = "destination", propertyValue = ConfiguredListener.QUEUE),
        @ActivationConfigProperty(propertyName = "useJNDI", propertyValue = "false"),
        @ActivationConfigProperty(propertyName = "maxSession", propertyValue = "2")})
public class ConfiguredListener implements MessageListener {

    /** The queue it consumes. */
    public static final String QUEUE = "configured";

    /** Its scope, and the consumer named on its invoices. */
    public static final String SCOPE = "configured";

    @Inject
    Orders orders;

    @Override
    public void onMessage(Message message) {
        try {
            orders.handle(SCOPE, message);
        } catch (JMSException e) {
            throw new IllegalStateException(e);
        }
    }
}
