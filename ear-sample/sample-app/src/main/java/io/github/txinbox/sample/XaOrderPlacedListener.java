package io.github.txinbox.sample;

import jakarta.ejb.ActivationConfigProperty;
import jakarta.ejb.MessageDriven;
import jakarta.inject.Inject;
import jakarta.jms.Message;
import jakarta.jms.MessageListener;

/**
 * The listener of the XA set-up ({@code TXINBOX_SAMPLE_XA=true}): {@code onMessage} runs in the container's
 * transaction, in which the broker's delivery and the database take part as XA resources, and
 * {@link OrderPlacedHandler} joins it. The broker's acknowledgement commits with the marker and the invoice; a retry
 * or a failure rolls all three back, and OpenMQ delivers the message again as for {@link OrderPlacedListener}.
 */
@Counted
@MessageDriven(activationConfig = {
        @ActivationConfigProperty(propertyName = "destinationType", propertyValue = "jakarta.jms.Queue"),
        @ActivationConfigProperty(propertyName = "destination", propertyValue = XaOrderPlacedListener.QUEUE),
        @ActivationConfigProperty(propertyName = "endpointExceptionRedeliveryAttempts", propertyValue = "3"),
        @ActivationConfigProperty(propertyName = "endpointExceptionRedeliveryInterval", propertyValue = "1000")})
public class XaOrderPlacedListener implements MessageListener {

    /** The physical queue the orders arrive on in the XA set-up. */
    public static final String QUEUE = "OrderPlacedXa";

    @Inject
    OrderPlacedHandler handler;

    @Override
    public void onMessage(Message message) {
        handler.handle(message);
    }
}
