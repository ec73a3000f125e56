package io.github.txinbox.it.aftercommit;

import jakarta.ejb.ActivationConfigProperty;
import jakarta.ejb.MessageDriven;
import jakarta.ejb.TransactionAttribute;
import jakarta.ejb.TransactionAttributeType;
import jakarta.inject.Inject;
import jakarta.jms.Message;
import jakarta.jms.MessageListener;

/**
 * The consumer of the queue {@code orders} in the set-up that acknowledges after the commit: without a transaction,
 * it hands each message to {@link AckAfterCommitOrders}, whose own transaction holds the marker and the invoice.
 */
@MessageDriven(activationConfig = {
        @ActivationConfigProperty(propertyName = "resourceAdapter", propertyValue = "test-artemis-rar"),
        @ActivationConfigProperty(propertyName = "destinationType", propertyValue = "jakarta.jms.Queue"),
        @ActivationConfigProperty(propertyName = "destination", propertyValue = "orders"),
        @ActivationConfigProperty(propertyName = "useJNDI", propertyValue = "false"),
        @ActivationConfigProperty(propertyName = "maxSession", propertyValue = "4")})
@TransactionAttribute(TransactionAttributeType.NOT_SUPPORTED)
public class AckAfterCommitOrdersListener implements MessageListener {

    @Inject
    AckAfterCommitOrders orders;

    @Override
    public void onMessage(Message message) {
        orders.handle(message);
    }
}
