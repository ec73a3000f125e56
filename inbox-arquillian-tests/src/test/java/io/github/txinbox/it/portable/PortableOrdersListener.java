package io.github.txinbox.it.portable;

import io.github.txinbox.Inbox;
import io.github.txinbox.it.messaging.Orders;
import jakarta.ejb.MessageDriven;
import jakarta.inject.Inject;
import jakarta.jms.JMSException;
import jakarta.jms.Message;
import jakarta.jms.MessageListener;

/**
 * Invoices orders from the queue {@value #QUEUE}, deduplicated by the order id; misbehaves as
 * {@link Orders#handle} describes. Its queue, destination type and concurrency come from the server's
 * {@code ejb-jar.xml}.
 */
@MessageDriven(name = "PortableOrdersListener")
public class PortableOrdersListener implements MessageListener {

    /** The queue this bean consumes from. */
    public static final String QUEUE = "orders";

    /** The consumer name on its invoices and handler calls. */
    public static final String CONSUMER = "portable";

    @Inject
    Orders orders;

    @Override
    @Inbox(key = Orders.ORDER_ID)
    public void onMessage(Message message) {
        try {
            orders.handle(CONSUMER, message);
        } catch (JMSException e) {
            throw new IllegalStateException(e);
        }
    }
}
