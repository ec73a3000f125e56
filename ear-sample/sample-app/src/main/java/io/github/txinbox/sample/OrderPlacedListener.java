package io.github.txinbox.sample;

import jakarta.ejb.ActivationConfigProperty;
import jakarta.ejb.MessageDriven;
import jakarta.ejb.TransactionAttribute;
import jakarta.ejb.TransactionAttributeType;
import jakarta.inject.Inject;
import jakarta.jms.Message;
import jakarta.jms.MessageListener;

/**
 * Receives "order placed" messages outside any transaction, and hands each to {@link OrderPlacedHandler}, whose own
 * transaction holds the inbox marker and the invoice and commits before {@code onMessage} returns. The broker
 * acknowledges the message after that, when {@code onMessage} returns; when an exception leaves {@code onMessage}
 * (a retry, a failure, a failed commit), OpenMQ delivers it again after {@code endpointExceptionRedeliveryInterval}
 * ms, at most {@code endpointExceptionRedeliveryAttempts} times, and then moves it to its dead-message queue
 * {@code mq.sys.dmq}.
 *
 * <p>Neither the broker nor the database needs XA. A crash after the commit and before the acknowledgement leaves
 * the message to be delivered again: the inbox skips it as a duplicate.
 */
@Counted
@MessageDriven(activationConfig = {
        @ActivationConfigProperty(propertyName = "destinationType", propertyValue = "jakarta.jms.Queue"),
        @ActivationConfigProperty(propertyName = "destination", propertyValue = OrderPlacedListener.QUEUE),
        // OpenMQ: after an exception, deliver again up to 3 more times, 1 s apart, then move to mq.sys.dmq.
        @ActivationConfigProperty(propertyName = "endpointExceptionRedeliveryAttempts", propertyValue = "3"),
        @ActivationConfigProperty(propertyName = "endpointExceptionRedeliveryInterval", propertyValue = "1000")})
@TransactionAttribute(TransactionAttributeType.NOT_SUPPORTED)
public class OrderPlacedListener implements MessageListener {

    /** The physical queue the orders arrive on. */
    public static final String QUEUE = "OrderPlaced";

    @Inject
    OrderPlacedHandler handler;

    @Override
    public void onMessage(Message message) {
        handler.handle(message);
    }
}
