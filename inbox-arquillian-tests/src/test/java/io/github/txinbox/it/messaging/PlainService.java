package io.github.txinbox.it.messaging;

import io.github.txinbox.Inbox;
import io.github.txinbox.InboxResult;
import jakarta.enterprise.context.ApplicationScoped;

/** {@code @Inbox} on a CDI bean with no transaction of its own: it needs its caller's. */
@ApplicationScoped
public class PlainService {

    /**
     * Records the call and reports it processed.
     *
     * @param orderId the order, and the message id
     * @return processed
     */
    @Inbox(scope = "plain", resolver = OrderIdResolver.class)
    public InboxResult place(String orderId) {
        Orders.recordCall("plain", orderId, 1);
        return InboxResult.processed();
    }
}
