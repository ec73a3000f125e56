package io.github.txinbox.bench.baseline;

import io.github.txinbox.Inbox;
import io.github.txinbox.bench.throughput.Invoicing;
import jakarta.ejb.ActivationConfigProperty;
import jakarta.ejb.MessageDriven;
import jakarta.inject.Inject;
import jakarta.jms.Message;
import jakarta.jms.MessageListener;

/**
 * The benchmark's {@code @Inbox} listener, deployed with an earlier commit's library: the same code as
 * {@link io.github.txinbox.bench.throughput.InboxListener}, on a queue of its own.
 */
@Inbox
@MessageDriven(activationConfig = {
        @ActivationConfigProperty(propertyName = "resourceAdapter", propertyValue = "test-artemis-rar"),
        @ActivationConfigProperty(propertyName = "destinationType", propertyValue = "jakarta.jms.Queue"),
        @ActivationConfigProperty(propertyName = "destination", propertyValue = BaselineListener.QUEUE),
        @ActivationConfigProperty(propertyName = "useJNDI", propertyValue = "false"),
        @ActivationConfigProperty(propertyName = "maxSession", propertyValue = "4")})
public class BaselineListener implements MessageListener {

    /** The queue it consumes. */
    public static final String QUEUE = "bench-baseline";

    @Inject
    Invoicing invoicing;

    @Override
    public void onMessage(Message message) {
        invoicing.invoice(QUEUE, message);
    }
}
