package io.github.txinbox.it.portable;

import io.github.txinbox.Inbox;
import io.github.txinbox.InboxResult;
import io.github.txinbox.it.crash.CrashPoint;
import io.github.txinbox.it.messaging.Orders;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.jms.JMSException;
import jakarta.jms.Message;
import jakarta.transaction.Transactional;

/**
 * Handles a message of {@link AckAfterCommitListener} in a transaction of its own, deduplicating by the order id in
 * the scope {@value #SCOPE}: the order handling of {@link Orders} ({@code retry-first}, {@code fail-first},
 * {@code fail-commit-first}), and these behaviours of its own: {@code skip}; {@code fail-always}; {@code hang}, which
 * stops in the handler until the test kills the server; {@code hang-before-commit} and {@code halt-after-commit},
 * which {@link AckAfterCommitCrashPoints} carries out around the commit.
 */
@ApplicationScoped
public class AckAfterCommitHandler {

    /** The inbox scope of this handler, also the consumer name on its invoices and handler calls. */
    public static final String SCOPE = "ack";

    @Inject
    Orders orders;

    /**
     * Handles a message.
     *
     * @param message the message
     * @return what became of it
     */
    @Transactional
    @Inbox(scope = SCOPE, key = Orders.ORDER_ID)
    public InboxResult handle(Message message) {
        try {
            String orderId = message.getStringProperty(Orders.ORDER_ID);
            String behaviour = message.getStringProperty(Orders.BEHAVIOUR);
            if ("skip".equals(behaviour)) {
                Orders.recordCall(SCOPE, orderId, message.getIntProperty("JMSXDeliveryCount"));
                return InboxResult.skipped("order " + orderId + " is not ours");
            }
            InboxResult result = orders.handleReturning(SCOPE, message);
            if ("fail-always".equals(behaviour)) {
                throw new IllegalStateException("simulated failure of every delivery of " + orderId);
            }
            if ("hang".equals(behaviour)) {
                CrashPoint.hangOnce(orderId);
            }
            AckAfterCommitCrashPoints.plan(orderId, behaviour);
            return result;
        } catch (JMSException e) {
            throw new IllegalStateException(e);
        }
    }
}
