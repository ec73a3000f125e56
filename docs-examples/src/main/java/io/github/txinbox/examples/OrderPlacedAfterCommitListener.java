package io.github.txinbox.examples;

import jakarta.ejb.ActivationConfigProperty;
import jakarta.ejb.MessageDriven;
import jakarta.ejb.TransactionAttribute;
import jakarta.ejb.TransactionAttributeType;
import jakarta.inject.Inject;
import jakarta.jms.Message;
import jakarta.jms.MessageListener;

// tag::listener[]
@MessageDriven(activationConfig = {
        @ActivationConfigProperty(propertyName = "destinationLookup", propertyValue = "jms/orders"),
        @ActivationConfigProperty(propertyName = "destinationType", propertyValue = "jakarta.jms.Queue")})
@TransactionAttribute(TransactionAttributeType.NOT_SUPPORTED) // the delivery is in no transaction
public class OrderPlacedAfterCommitListener implements MessageListener {

    @Inject
    OrderPlacedHandler handler;

    @Override
    public void onMessage(Message message) {
        handler.handle(message); // commits before onMessage returns; the broker acknowledges after
    }
}
// end::listener[]
