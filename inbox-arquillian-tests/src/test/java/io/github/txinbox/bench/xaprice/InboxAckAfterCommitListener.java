package io.github.txinbox.bench.xaprice;

import jakarta.ejb.ActivationConfigProperty;
import jakarta.ejb.MessageDriven;
import jakarta.ejb.TransactionAttribute;
import jakarta.ejb.TransactionAttributeType;
import jakarta.inject.Inject;
import jakarta.jms.Message;
import jakarta.jms.MessageListener;

/**
 * The set-up that acknowledges after the commit: the message-driven bean runs without a transaction and hands each
 * message to {@link AckAfterCommitInvoicing}, whose own transaction holds the marker and the invoice on the non-XA
 * datasource.
 */
@MessageDriven(activationConfig = {
        @ActivationConfigProperty(propertyName = "resourceAdapter", propertyValue = "test-artemis-rar"),
        @ActivationConfigProperty(propertyName = "destinationType", propertyValue = "jakarta.jms.Queue"),
        @ActivationConfigProperty(propertyName = "destination", propertyValue = InboxAckAfterCommitListener.QUEUE),
        @ActivationConfigProperty(propertyName = "useJNDI", propertyValue = "false"),
        @ActivationConfigProperty(propertyName = "maxSession", propertyValue = "4")})
@TransactionAttribute(TransactionAttributeType.NOT_SUPPORTED)
public class InboxAckAfterCommitListener implements MessageListener {

    /** The queue it consumes. */
    public static final String QUEUE = "price-inbox-ack";

    @Inject
    AckAfterCommitInvoicing invoicing;

    @Override
    public void onMessage(Message message) {
        invoicing.invoice(message);
    }
}
