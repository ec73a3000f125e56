package io.github.txinbox.bench.xaprice;

import io.github.txinbox.Inbox;
import io.github.txinbox.bench.throughput.Invoicing;
import jakarta.ejb.ActivationConfigProperty;
import jakarta.ejb.MessageDriven;
import jakarta.inject.Inject;
import jakarta.jms.Message;
import jakarta.jms.MessageListener;

/** With {@code @Inbox}, deployed with the non-XA datasource: the database commits as the one one-phase resource. */
@Inbox
@MessageDriven(activationConfig = {
        @ActivationConfigProperty(propertyName = "resourceAdapter", propertyValue = "test-artemis-rar"),
        @ActivationConfigProperty(propertyName = "destinationType", propertyValue = "jakarta.jms.Queue"),
        @ActivationConfigProperty(propertyName = "destination", propertyValue = InboxLocalListener.QUEUE),
        @ActivationConfigProperty(propertyName = "useJNDI", propertyValue = "false"),
        @ActivationConfigProperty(propertyName = "maxSession", propertyValue = "4")})
public class InboxLocalListener implements MessageListener {

    /** The queue it consumes. */
    public static final String QUEUE = "price-inbox-local";

    @Inject
    Invoicing invoicing;

    @Override
    public void onMessage(Message message) {
        invoicing.invoice(QUEUE, message);
    }
}
