package io.github.txinbox.it.portable;

import io.github.txinbox.Inbox;
import io.github.txinbox.InboxResult;
import io.github.txinbox.it.messaging.Orders;
import jakarta.ejb.Stateless;
import jakarta.ejb.TransactionAttribute;
import jakarta.ejb.TransactionAttributeType;
import jakarta.inject.Inject;
import jakarta.jms.JMSException;
import jakarta.jms.Message;

/**
 * Handles a message of {@link AckAfterCommitListener} in a stateless bean's container-managed transaction of its own,
 * {@code REQUIRES_NEW}: the container begins one for every call and ends it as the call returns. Deduplicates by the order id in the scope {@value #SCOPE}; behaves as
 * {@link Orders#handleReturning} does.
 */
@Stateless
@TransactionAttribute(TransactionAttributeType.REQUIRES_NEW)
public class AckAfterCommitRequiresNewHandler {

    /** The inbox scope of this handler, also the consumer name on its invoices and handler calls. */
    public static final String SCOPE = "ack-requires-new";

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
