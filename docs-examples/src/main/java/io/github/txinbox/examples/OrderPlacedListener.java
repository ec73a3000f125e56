package io.github.txinbox.examples;

import io.github.txinbox.Inbox;
import jakarta.ejb.ActivationConfigProperty;
import jakarta.ejb.MessageDriven;
import jakarta.inject.Inject;
import jakarta.jms.Message;
import jakarta.jms.MessageListener;

// tag::listener[]
@MessageDriven(activationConfig = {
        @ActivationConfigProperty(propertyName = "destinationLookup", propertyValue = "jms/orders"),
        @ActivationConfigProperty(propertyName = "destinationType", propertyValue = "jakarta.jms.Queue")})
public class OrderPlacedListener implements MessageListener {

    @Inject
    InvoiceService invoices;

    @Override
    @Inbox(key = "orderId") // the JMS property that identifies the message; default: JMSMessageID
    public void onMessage(Message message) {
        invoices.createFor(message); // runs once per order id, in the MDB's transaction
    }
}
// end::listener[]
