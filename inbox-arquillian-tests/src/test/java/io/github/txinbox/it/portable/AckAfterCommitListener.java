package io.github.txinbox.it.portable;

import jakarta.ejb.MessageDriven;
import jakarta.ejb.TransactionAttribute;
import jakarta.ejb.TransactionAttributeType;
import jakarta.inject.Inject;
import jakarta.jms.Message;
import jakarta.jms.MessageListener;

/**
 * The consumer of the queue {@value #QUEUE} in the set-up that acknowledges after the commit: it runs without a
 * transaction, so the broker's delivery is in none, and hands the message to {@link AckAfterCommitHandler}, whose
 * transaction holds the marker and the invoice and commits before this method returns. An exception from the handler
 * leaves {@code onMessage}, and the broker delivers the message again.
 */
@MessageDriven(name = "AckAfterCommitListener")
@TransactionAttribute(TransactionAttributeType.NOT_SUPPORTED)
public class AckAfterCommitListener implements MessageListener {

    /** The queue this bean consumes from. */
    public static final String QUEUE = "ack";

    @Inject
    AckAfterCommitHandler handler;

    @Override
    public void onMessage(Message message) {
        handler.handle(message);
    }
}
