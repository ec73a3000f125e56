package io.github.txinbox.bench.throughput;

import io.github.txinbox.InboxRepository;
import jakarta.ejb.ActivationConfigProperty;
import jakarta.ejb.MessageDriven;
import jakarta.inject.Inject;
import jakarta.jms.JMSException;
import jakarta.jms.Message;
import jakarta.jms.MessageListener;

/**
 * The claim by hand, without {@code @Inbox}: the repository's statement, then the invoice. Against
 * {@link InboxListener}, it tells what the two interceptors themselves cost.
 */
@MessageDriven(activationConfig = {
        @ActivationConfigProperty(propertyName = "resourceAdapter", propertyValue = "test-artemis-rar"),
        @ActivationConfigProperty(propertyName = "destinationType", propertyValue = "jakarta.jms.Queue"),
        @ActivationConfigProperty(propertyName = "destination", propertyValue = HandListener.QUEUE),
        @ActivationConfigProperty(propertyName = "useJNDI", propertyValue = "false"),
        @ActivationConfigProperty(propertyName = "maxSession", propertyValue = "4")})
public class HandListener implements MessageListener {

    /** The queue it consumes, and its scope. */
    public static final String QUEUE = "bench-by-hand";

    @Inject
    InboxRepository inbox;

    @Inject
    Invoicing invoicing;

    @Override
    public void onMessage(Message message) {
        try {
            if (inbox.claim(QUEUE, message.getJMSMessageID())) {
                invoicing.invoice(QUEUE, message);
            }
        } catch (JMSException e) {
            throw new IllegalStateException(e);
        }
    }
}
