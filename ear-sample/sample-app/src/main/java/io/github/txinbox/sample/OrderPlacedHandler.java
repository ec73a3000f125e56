package io.github.txinbox.sample;

import io.github.txinbox.Inbox;
import io.github.txinbox.InboxRetryException;
import jakarta.ejb.EJB;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.jms.JMSException;
import jakarta.jms.Message;
import jakarta.transaction.Transactional;
import java.math.BigDecimal;

/**
 * Turns an "order placed" message into an invoice, once per order: {@code @Inbox} claims the order id (the message
 * property {@value #ORDER_ID}) in the same transaction as the invoice, so a duplicate, whether sent twice or
 * redelivered, is skipped without a second invoice.
 *
 * <p>{@code @Transactional} begins that transaction when the caller has none ({@link OrderPlacedListener}): it then
 * commits before this method returns, and a retry or a failure leaves it as an exception, so that the broker delivers
 * the message again instead of acknowledging it. When the caller has a transaction ({@link XaOrderPlacedListener}),
 * the method joins it.
 *
 * <p>An order flagged {@value #FAIL_FIRST} asks for a retry on its first delivery, one flagged {@value #POISON} on
 * every delivery.
 */
@ApplicationScoped
public class OrderPlacedHandler {

    /** The message property holding the demo batch the order belongs to. */
    public static final String BATCH = "batch";

    /** The message property holding the order id: the inbox key. */
    public static final String ORDER_ID = "orderId";

    /** The message property holding the amount. */
    public static final String AMOUNT = "amount";

    /** A boolean message property: retry the first delivery of this order. */
    public static final String FAIL_FIRST = "failFirst";

    /** A boolean message property: retry every delivery of this order, until the broker gives up. */
    public static final String POISON = "poison";

    @EJB
    Invoicing invoicing;

    @EJB
    Counters counters;

    /**
     * Invoices the order of a message, unless the inbox has seen it.
     *
     * <p>{@code rethrowRetry} is for {@link XaOrderPlacedListener}, whose transaction this method joins: on OpenMQ a
     * retry must leave {@code onMessage} as an exception to be redelivered after
     * {@code endpointExceptionRedeliveryInterval}. In a transaction of its own the retry is thrown anyway.
     *
     * @param message the message
     */
    @Transactional
    @Inbox(scope = "order-placed", key = ORDER_ID, rethrowRetry = true)
    public void handle(Message message) {
        try {
            String batch = message.getStringProperty(BATCH);
            counters.handled(batch);
            String orderId = message.getStringProperty(ORDER_ID);
            int delivery = message.getIntProperty("JMSXDeliveryCount");
            counters.attempt(batch, orderId, delivery);
            if (message.getBooleanProperty(POISON)
                    || message.getBooleanProperty(FAIL_FIRST) && delivery == 1) {
                counters.failed(batch);
                throw new InboxRetryException("order " + orderId + " cannot be invoiced yet (delivery " + delivery
                        + ")");
            }
            invoicing.invoice(orderId, new BigDecimal(message.getStringProperty(AMOUNT)));
        } catch (JMSException e) {
            throw new IllegalStateException("Cannot read " + message, e);
        }
    }
}
