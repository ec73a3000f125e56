package io.github.txinbox.bench.throughput;

import io.github.txinbox.Inbox;
import jakarta.ejb.ActivationConfigProperty;
import jakarta.ejb.MessageDriven;
import jakarta.inject.Inject;
import jakarta.jms.Message;
import jakarta.jms.MessageListener;

/** With {@code @Inbox}: the claim, then the invoice. */
@Inbox
@MessageDriven(activationConfig = {
        @ActivationConfigProperty(propertyName = "resourceAdapter", propertyValue = "test-artemis-rar"),
        @ActivationConfigProperty(propertyName = "destinationType", propertyValue = "jakarta.jms.Queue"),
        @ActivationConfigProperty(propertyName = "destination", propertyValue = InboxListener.QUEUE),
        @ActivationConfigProperty(propertyName = "useJNDI", propertyValue = "false"),
        @ActivationConfigProperty(propertyName = "maxSession", propertyValue = "4")})
public class InboxListener implements MessageListener {

    /** The queue it consumes. */
    public static final String QUEUE = "bench-inbox";

    @Inject
    Invoicing invoicing;

    @Override
    public void onMessage(Message message) {
        invoicing.invoice(QUEUE, message);
    }
}
