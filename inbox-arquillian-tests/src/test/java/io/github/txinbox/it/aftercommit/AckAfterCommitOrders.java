package io.github.txinbox.it.aftercommit;

import io.github.txinbox.Inbox;
import io.github.txinbox.it.messaging.Orders;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.jms.JMSException;
import jakarta.jms.Message;
import jakarta.transaction.Transactional;

/**
 * Handles an order of {@link AckAfterCommitOrdersListener} in a transaction of its own, deduplicating by the order id
 * in the scope {@value #SCOPE}, with the invoices of the consumer {@code orders}.
 */
@ApplicationScoped
public class AckAfterCommitOrders {

    /** The inbox scope. */
    public static final String SCOPE = "ack-orders";

    @Inject
    Orders orders;

    /**
     * Handles an order.
     *
     * @param message the message
     */
    @Transactional
    @Inbox(scope = SCOPE, key = Orders.ORDER_ID)
    public void handle(Message message) {
        try {
            orders.handle("orders", message);
        } catch (JMSException e) {
            throw new IllegalStateException(e);
        }
    }
}
