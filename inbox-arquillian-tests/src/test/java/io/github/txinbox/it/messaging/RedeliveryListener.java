package io.github.txinbox.it.messaging;

import io.github.txinbox.Inbox;
import jakarta.ejb.ActivationConfigProperty;
import jakarta.ejb.MessageDriven;
import jakarta.inject.Inject;
import jakarta.jms.JMSException;
import jakarta.jms.Message;
import jakarta.jms.MessageListener;

/** Deduplicates by JMSMessageID (the default key), which the broker keeps across redeliveries. */
@MessageDriven(activationConfig = {
        @ActivationConfigProperty(propertyName = "resourceAdapter", propertyValue = "test-artemis-rar"),
        @ActivationConfigProperty(propertyName = "destinationType", propertyValue = "jakarta.jms.Queue"),
        @ActivationConfigProperty(propertyName = "destination", propertyValue = "redelivery"),
        @ActivationConfigProperty(propertyName = "useJNDI", propertyValue = "false"),
        @ActivationConfigProperty(propertyName = "maxSession", propertyValue = "2")})
public class RedeliveryListener implements MessageListener {

    @Inject
    Orders orders;

    @Override
    @Inbox(scope = "redelivery")
    public void onMessage(Message message) {
        try {
            orders.handle("redelivery", message);
        } catch (JMSException e) {
            throw new IllegalStateException(e);
        }
    }
}
