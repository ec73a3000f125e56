package io.github.txinbox.it.portable;

import io.github.txinbox.InboxEvent;
import io.github.txinbox.InboxOutcome;
import io.github.txinbox.it.crash.CrashPoint;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.enterprise.event.TransactionPhase;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Where the set-up that acknowledges after the commit is stopped around its commit, observing the inbox's own event in
 * the transaction's phases: {@code hang-before-commit} blocks before the commit (the database's work flushed, not
 * committed) until the test kills the server; {@code halt-after-commit} halts the JVM at once after the commit, before
 * {@code onMessage} returns and so before the broker is acknowledged. Each publishes the server's process id in
 * {@code handler_stall} first, so the test knows the point was reached, once per order.
 */
@ApplicationScoped
public class AckAfterCommitCrashPoints {

    private static final Map<String, String> PLANNED = new ConcurrentHashMap<>();

    /**
     * Plans a stop around the commit of an order's transaction, if its behaviour asks for one.
     *
     * @param orderId   the order, the message id in the scope {@value AckAfterCommitHandler#SCOPE}
     * @param behaviour the message's behaviour
     */
    static void plan(String orderId, String behaviour) {
        if ("hang-before-commit".equals(behaviour) || "halt-after-commit".equals(behaviour)) {
            PLANNED.put(orderId, behaviour);
        }
    }

    void beforeCommit(@Observes(during = TransactionPhase.BEFORE_COMPLETION) InboxEvent event) {
        if (planned(event, "hang-before-commit")) {
            CrashPoint.hangOnce(event.messageId());
        }
    }

    void afterCommit(@Observes(during = TransactionPhase.AFTER_SUCCESS) InboxEvent event) {
        if (planned(event, "halt-after-commit") && CrashPoint.markReached(event.messageId())) {
            Runtime.getRuntime().halt(137);
        }
    }

    private static boolean planned(InboxEvent event, String behaviour) {
        return event.outcome() == InboxOutcome.PROCESSED && AckAfterCommitHandler.SCOPE.equals(event.scope())
                && PLANNED.remove(event.messageId(), behaviour);
    }
}
