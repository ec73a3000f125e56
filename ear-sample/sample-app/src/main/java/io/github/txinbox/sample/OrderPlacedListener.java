package io.github.txinbox.sample;

import io.github.txinbox.Inbox;
import io.github.txinbox.InboxRetryException;
import jakarta.ejb.ActivationConfigProperty;
import jakarta.ejb.EJB;
import jakarta.ejb.MessageDriven;
import jakarta.jms.JMSException;
import jakarta.jms.Message;
import jakarta.jms.MessageListener;
import java.math.BigDecimal;

/**
 * Turns "order placed" messages into invoices, once per order: {@code @Inbox} claims the order id (the message
 * property {@value #ORDER_ID}) in this MDB's transaction, so a duplicate, whether sent twice or redelivered, is
 * acknowledged without a second invoice.
 *
 * <p>An order flagged {@value #FAIL_FIRST} asks for a retry on its first delivery, one flagged {@value #POISON} on
 * every delivery. On OpenMQ a retry must leave {@code onMessage} as an exception ({@code rethrowRetry}): the resource
 * adapter then redelivers it after {@code endpointExceptionRedeliveryInterval} ms, at most
 * {@code endpointExceptionRedeliveryAttempts} times, and then moves it to the dead-message queue {@code mq.sys.dmq}.
 * (A transaction that is merely rolled back is redelivered at once, again and again.)
 */
@Counted
@MessageDriven(activationConfig = {
        @ActivationConfigProperty(propertyName = "destinationType", propertyValue = "jakarta.jms.Queue"),
        @ActivationConfigProperty(propertyName = "destination", propertyValue = OrderPlacedListener.QUEUE),
        // OpenMQ: after an exception, deliver again up to 3 more times, 1 s apart, then move to mq.sys.dmq.
        @ActivationConfigProperty(propertyName = "endpointExceptionRedeliveryAttempts", propertyValue = "3"),
        @ActivationConfigProperty(propertyName = "endpointExceptionRedeliveryInterval", propertyValue = "1000")})
public class OrderPlacedListener implements MessageListener {

    /** The physical queue the orders arrive on. */
    public static final String QUEUE = "OrderPlaced";

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

    @Override
    @Inbox(scope = "order-placed", key = ORDER_ID, rethrowRetry = true)
    public void onMessage(Message message) {
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
