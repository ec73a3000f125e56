package io.github.txinbox.it.portable;

import io.github.txinbox.Inbox;
import io.github.txinbox.InboxResult;
import io.github.txinbox.it.messaging.Orders;
import jakarta.ejb.Stateless;
import jakarta.inject.Inject;
import jakarta.jms.JMSException;
import jakarta.jms.Message;

/**
 * Handles a message of {@link AckAfterCommitListener} in a stateless bean's container-managed transaction with the
 * default {@code REQUIRED}: called from a bean without a transaction, the container begins one for this call and ends
 * it as the call returns. Deduplicates by the order id in the scope {@value #SCOPE}; behaves as
 * {@link Orders#handleReturning} does.
 */
@Stateless
public class AckAfterCommitRequiredHandler {

    /** The inbox scope of this handler, also the consumer name on its invoices and handler calls. */
    public static final String SCOPE = "ack-required";

    @Inject
    Orders orders;

    /**
     * Handles a message.
     *
     * @param message the message
     * @return what became of it
     * @throws JMSException when the message cannot be read
     */
    @Inbox(scope = SCOPE, key = Orders.ORDER_ID)
    public InboxResult handle(Message message) throws JMSException {
        return orders.handleReturning(SCOPE, message);
    }
}
