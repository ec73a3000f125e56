package io.github.txinbox.bench.throughput;

import jakarta.ejb.ActivationConfigProperty;
import jakarta.ejb.MessageDriven;
import jakarta.inject.Inject;
import jakarta.jms.Message;
import jakarta.jms.MessageListener;

/** Without {@code @Inbox}: the invoice alone. */
@MessageDriven(activationConfig = {
        @ActivationConfigProperty(propertyName = "resourceAdapter", propertyValue = "test-artemis-rar"),
        @ActivationConfigProperty(propertyName = "destinationType", propertyValue = "jakarta.jms.Queue"),
        @ActivationConfigProperty(propertyName = "destination", propertyValue = PlainListener.QUEUE),
        @ActivationConfigProperty(propertyName = "useJNDI", propertyValue = "false"),
        @ActivationConfigProperty(propertyName = "maxSession", propertyValue = "4")})
public class PlainListener implements MessageListener {

    /** The queue it consumes. */
    public static final String QUEUE = "bench-plain";

    @Inject
    Invoicing invoicing;

    @Override
    public void onMessage(Message message) {
        invoicing.invoice(QUEUE, message);
    }
}
