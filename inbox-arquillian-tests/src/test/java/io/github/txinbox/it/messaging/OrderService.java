package io.github.txinbox.it.messaging;

import io.github.txinbox.Inbox;
import io.github.txinbox.InboxResult;
import io.github.txinbox.InboxRetryException;
import jakarta.annotation.Resource;
import jakarta.ejb.SessionContext;
import jakarta.ejb.Stateless;
import jakarta.inject.Inject;
import jakarta.jms.JMSException;
import jakarta.jms.Message;

/** {@code @Inbox} on the business methods of a stateless bean, in its container-managed transactions. */
@Stateless
public class OrderService {

    /** How long {@link #place} takes with the behaviour {@code slow}, in milliseconds at least. */
    public static final long SLOW_MILLIS = 200;

    /** The scope of {@link #place}. */
    public static final String DIRECT_SCOPE = "direct";

    @Inject
    Orders orders;

    @Resource
    SessionContext context;

    /**
     * Handles an order message: skips it when its {@code behaviour} is {@code skip}, else invoices it.
     *
     * @param message the message
     * @return the result
     */
    @Inbox(scope = "service", key = Orders.ORDER_ID)
    public InboxResult handle(Message message) {
        try {
            String orderId = message.getStringProperty(Orders.ORDER_ID);
            Orders.recordCall("service", orderId, message.getIntProperty("JMSXDeliveryCount"));
            if ("skip".equals(message.getStringProperty(Orders.BEHAVIOUR))) {
                return InboxResult.skipped("order " + orderId + " is a test order");
            }
            orders.invoice("service", orderId);
            return InboxResult.processed();
        } catch (JMSException e) {
            throw new IllegalStateException(e);
        }
    }

    /**
     * Invoices an order and asks for a retry, which leaves the method as an {@link InboxRetryException}.
     *
     * @param orderId the order, and the message id
     * @return never returns normally
     */
    @Inbox(scope = "rethrow", resolver = OrderIdResolver.class, rethrowRetry = true)
    public InboxResult retryRethrown(String orderId) {
        Orders.recordCall("rethrow", orderId, 1);
        orders.invoice("rethrow", orderId);
        return InboxResult.retry("rethrown for the resource adapter");
    }

    /**
     * Places an order directly, with no message: the id comes from {@link OrderIdResolver}. Behaves as asked:
     * {@code skip} returns a skip and writes nothing; the others invoice the order, then {@code process} returns
     * processed ({@code slow} after {@value SLOW_MILLIS} ms), {@code retry} returns a retry, {@code retry-exception}
     * throws {@link InboxRetryException}, {@code fail} throws {@link IllegalStateException} and {@code duplicate}
     * returns {@link InboxResult#duplicate()}, which is the inbox's answer, not a method's; {@code rollback-only} marks
     * the transaction for rollback and returns processed.
     *
     * @param orderId   the order, and the message id
     * @param behaviour what to do
     * @return the result
     */
    @Inbox(scope = DIRECT_SCOPE, resolver = OrderIdResolver.class)
    public InboxResult place(String orderId, String behaviour) {
        Orders.recordCall(DIRECT_SCOPE, orderId, 1);
        if ("skip".equals(behaviour)) {
            return InboxResult.skipped("not for us");
        }
        orders.invoice(DIRECT_SCOPE, orderId);
        return switch (behaviour) {
            case "process" -> InboxResult.processed();
            case "slow" -> {
                sleep(SLOW_MILLIS);
                yield InboxResult.processed();
            }
            case "retry" -> InboxResult.retry("try again later");
            case "retry-exception" -> throw new InboxRetryException("try again later");
            case "fail" -> throw new IllegalStateException("failed to place " + orderId);
            case "duplicate" -> InboxResult.duplicate();
            case "rollback-only" -> {
                context.setRollbackOnly();
                yield InboxResult.processed();
            }
            default -> throw new IllegalArgumentException(behaviour);
        };
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
