package io.github.txinbox.it.kafka;

import io.github.txinbox.InboxEvent;
import io.github.txinbox.InboxOutcome;
import io.github.txinbox.it.crash.CrashPoint;
import jakarta.annotation.Priority;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.interceptor.Interceptor;

/**
 * Stalls the handler's thread after the commit of an order whose id says so, the first time it is processed: the
 * inbox's event comes after the transaction has ended and before the {@code @Transactional} method returns to the
 * consumer, so the consumer has not acknowledged the record and its offset stays uncommitted. An order whose id starts
 * with {@value #HANG} hangs there until the test kills the server ({@link CrashPoint#hangOnce}); one whose id starts
 * with {@value #HOLD} waits until the test releases it ({@link CrashPoint#holdOnce}).
 */
@ApplicationScoped
public class AfterCommitStall {

    /** The prefix of the orders whose thread hangs after the commit. */
    public static final String HANG = "hang-after-commit-";

    /** The prefix of the orders whose thread waits after the commit until the test releases it. */
    public static final String HOLD = "hold-after-commit-";

    /** After the suite's decision log ({@code DecisionLog}, at the default priority) has recorded the decision. */
    void stall(@Observes @Priority(Interceptor.Priority.APPLICATION + 1000) InboxEvent event) {
        if (event.outcome() != InboxOutcome.PROCESSED) {
            return;
        }
        if (event.messageId().startsWith(HANG)) {
            CrashPoint.hangOnce(event.messageId());
        } else if (event.messageId().startsWith(HOLD)) {
            CrashPoint.holdOnce(event.messageId());
        }
    }
}
