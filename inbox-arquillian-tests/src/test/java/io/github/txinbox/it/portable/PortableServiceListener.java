package io.github.txinbox.it.portable;

import io.github.txinbox.it.messaging.OrderService;
import jakarta.ejb.MessageDriven;
import jakarta.inject.Inject;
import jakarta.jms.Message;
import jakarta.jms.MessageListener;

/**
 * Hands messages from the queue {@value #QUEUE} to {@link OrderService#handle}, whose {@code @Inbox} (scope
 * {@code service}) skips the orders marked {@code skip}. Bound to its queue by the server's {@code ejb-jar.xml}.
 */
@MessageDriven(name = "PortableServiceListener")
public class PortableServiceListener implements MessageListener {

    /** The queue this bean consumes from. */
    public static final String QUEUE = "service";

    @Inject
    OrderService service;

    @Override
    public void onMessage(Message message) {
        service.handle(message);
    }
}
