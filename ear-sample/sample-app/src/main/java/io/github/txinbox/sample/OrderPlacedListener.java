package io.github.txinbox.sample;

import io.github.txinbox.Inbox;
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
 * acknowledged without a second invoice. An order flagged {@value #FAIL_FIRST} fails on its first delivery; the
 * transaction rolls back and OpenMQ delivers it again (see the activation properties).
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

    /** The message property holding the order id: the inbox key. */
    public static final String ORDER_ID = "orderId";

    /** The message property holding the amount. */
    public static final String AMOUNT = "amount";

    /** A boolean message property: fail the first delivery of this order. */
    public static final String FAIL_FIRST = "failFirst";

    @EJB
    Invoicing invoicing;

    @EJB
    Counters counters;

    @Override
    @Inbox(scope = "order-placed", key = ORDER_ID)
    public void onMessage(Message message) {
        counters.handled();
        try {
            if (message.getBooleanProperty(FAIL_FIRST) && message.getIntProperty("JMSXDeliveryCount") == 1) {
                counters.failed();
                throw new IllegalStateException("Simulated failure of the first delivery of order "
                        + message.getStringProperty(ORDER_ID));
            }
            invoicing.invoice(message.getStringProperty(ORDER_ID), new BigDecimal(message.getStringProperty(AMOUNT)));
        } catch (JMSException e) {
            throw new IllegalStateException("Cannot read " + message, e);
        }
    }
}
