package io.github.txinbox.it.messaging;

import io.github.txinbox.Inbox;
import jakarta.ejb.ActivationConfigProperty;
import jakarta.ejb.MessageDriven;
import jakarta.inject.Inject;
import jakarta.jms.JMSException;
import jakarta.jms.Message;
import jakarta.jms.MessageListener;

/** Deduplicates by the application's order id (the message property {@value Orders#ORDER_ID}). */
@MessageDriven(activationConfig = {
        @ActivationConfigProperty(propertyName = "resourceAdapter", propertyValue = "test-artemis-rar"),
        @ActivationConfigProperty(propertyName = "destinationType", propertyValue = "jakarta.jms.Queue"),
        @ActivationConfigProperty(propertyName = "destination", propertyValue = "orders"),
        @ActivationConfigProperty(propertyName = "useJNDI", propertyValue = "false"),
        @ActivationConfigProperty(propertyName = "maxSession", propertyValue = "4")})
public class OrdersListener implements MessageListener {

    @Inject
    Orders orders;

    @Override
    @Inbox(key = Orders.ORDER_ID)
    public void onMessage(Message message) {
        try {
            orders.handle("orders", message);
        } catch (JMSException e) {
            throw new IllegalStateException(e);
        }
    }
}
