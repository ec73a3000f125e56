package io.github.txinbox.it.portable;

import jakarta.ejb.MessageDriven;
import jakarta.ejb.TransactionAttribute;
import jakarta.ejb.TransactionAttributeType;
import jakarta.inject.Inject;
import jakarta.jms.JMSException;
import jakarta.jms.Message;
import jakarta.jms.MessageListener;

/**
 * The consumer of the queue {@value #QUEUE} in the set-up that acknowledges after the commit: it runs without a
 * transaction, so the broker's delivery is in none, and hands the message to {@link AckAfterCommitHandler}, whose
 * transaction holds the marker and the invoice and commits before this method returns. An exception from the handler
 * leaves {@code onMessage}, and the broker delivers the message again. The message property {@value #VIA} sends it to a
 * stateless bean instead, whose container-managed transaction begins and ends with the call.
 */
@MessageDriven(name = "AckAfterCommitListener")
@TransactionAttribute(TransactionAttributeType.NOT_SUPPORTED)
public class AckAfterCommitListener implements MessageListener {

    /** The queue this bean consumes from. */
    public static final String QUEUE = "ack";

    /** The message property naming the handler: {@value #VIA_REQUIRED}, {@value #VIA_REQUIRES_NEW}, else the CDI bean. */
    public static final String VIA = "via";

    /** The value of {@value #VIA} for {@link AckAfterCommitRequiredHandler}. */
    public static final String VIA_REQUIRED = "ejb-required";

    /** The value of {@value #VIA} for {@link AckAfterCommitRequiresNewHandler}. */
    public static final String VIA_REQUIRES_NEW = "ejb-requires-new";

    @Inject
    AckAfterCommitHandler handler;

    @Inject
    AckAfterCommitRequiredHandler required;

    @Inject
    AckAfterCommitRequiresNewHandler requiresNew;

    @Override
    public void onMessage(Message message) {
        try {
            String via = message.getStringProperty(VIA);
            if (VIA_REQUIRED.equals(via)) {
                required.handle(message);
            } else if (VIA_REQUIRES_NEW.equals(via)) {
                requiresNew.handle(message);
            } else {
                handler.handle(message);
            }
        } catch (JMSException e) {
            throw new IllegalStateException(e);
        }
    }
}
