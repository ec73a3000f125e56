package io.github.txinbox.it.messaging;

import io.github.txinbox.InboxResult;
import jakarta.enterprise.context.ApplicationScoped;

/** A bean that gets {@code @Inbox} from its stereotype alone, which the extension must see as the container does. */
@InboxService
@ApplicationScoped
public class StereotypedService {

    /** The scope the stereotype names. */
    public static final String SCOPE = "stereotyped";

    /**
     * Records the call and reports it processed.
     *
     * @param orderId the order, and the message id
     * @return processed
     */
    public InboxResult place(String orderId) {
        Orders.recordCall(SCOPE, orderId, 1);
        return InboxResult.processed();
    }
}
