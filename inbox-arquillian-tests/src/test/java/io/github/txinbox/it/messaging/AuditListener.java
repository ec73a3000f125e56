package io.github.txinbox.it.messaging;

import io.github.txinbox.Inbox;
import jakarta.ejb.ActivationConfigProperty;
import jakarta.ejb.MessageDriven;
import jakarta.inject.Inject;
import jakarta.jms.JMSException;
import jakarta.jms.Message;
import jakarta.jms.MessageListener;

/** A second consumer of the same orders, on its own queue, in its own scope (its class name: the default). */
@Inbox(key = Orders.ORDER_ID)
@MessageDriven(activationConfig = {
        @ActivationConfigProperty(propertyName = "resourceAdapter", propertyValue = "test-artemis-rar"),
        @ActivationConfigProperty(propertyName = "destinationType", propertyValue = "jakarta.jms.Queue"),
        @ActivationConfigProperty(propertyName = "destination", propertyValue = "audit"),
        @ActivationConfigProperty(propertyName = "useJNDI", propertyValue = "false"),
        @ActivationConfigProperty(propertyName = "maxSession", propertyValue = "2")})
public class AuditListener implements MessageListener {

    @Inject
    Orders orders;

    @Override
    public void onMessage(Message message) {
        try {
            orders.handle("audit", message);
        } catch (JMSException e) {
            throw new IllegalStateException(e);
        }
    }
}
