package io.github.txinbox;

import java.time.Duration;
import java.util.Objects;

/**
 * What the {@link Inbox @Inbox} interceptor decided for one call, fired as a synchronous CDI event once per call
 * that had an active transaction. Observe it with {@code @Observes InboxEvent}.
 *
 * <p>Observers run on the caller's thread, inside its transaction, before the method's result goes back to the
 * container: what they write commits or rolls back with the message (on {@link InboxOutcome#RETRY},
 * {@link InboxOutcome#HELD}, {@link InboxOutcome#FAILURE} and {@link InboxOutcome#MISSING_ID} the transaction is
 * already marked for rollback, so their writes are discarded), and the time they take adds to the message's. An
 * exception from an observer is logged and changes nothing: the decision stands. {@code @ObservesAsync} observers are not notified.
 *
 * @param scope     the deduplication scope
 * @param messageId the message id; {@code null} for {@link InboxOutcome#MISSING_ID}, and for
 *                  {@link InboxOutcome#FAILURE} when reading the id failed
 * @param outcome   what the inbox decided
 * @param reason    why, for {@link InboxOutcome#SKIPPED} and {@link InboxOutcome#RETRY} (the reason given, or the
 *                  SQLSTATE of a conflicting claim), {@link InboxOutcome#HELD} (how long the claim waited, and for what),
 *                  {@link InboxOutcome#FAILURE} (the exception's class and message) and
 *                  {@link InboxOutcome#MISSING_ID} (what was missing); {@code null} otherwise
 * @param duration  from the interceptor's start to its decision: the claim, and the method when it ran; not negative
 * @param method    the intercepted method, as {@code fully.qualified.BeanClass.method}
 */
public record InboxEvent(String scope, String messageId, InboxOutcome outcome, String reason, Duration duration,
        String method) {


    /**
     * Checks the event.
     *
     * @throws NullPointerException     when the scope, the outcome, the duration or the method is null, or the
     *                                  message id is null for any outcome but {@link InboxOutcome#MISSING_ID} and
     *                                  {@link InboxOutcome#FAILURE}
     * @throws IllegalArgumentException when the duration is negative
     */
    public InboxEvent {
        Objects.requireNonNull(scope, "scope");
        Objects.requireNonNull(outcome, "outcome");
        Objects.requireNonNull(duration, "duration");
        Objects.requireNonNull(method, "method");
        if (outcome != InboxOutcome.MISSING_ID && outcome != InboxOutcome.FAILURE) {
            Objects.requireNonNull(messageId, "messageId");
        }
        if (duration.isNegative()) {
            throw new IllegalArgumentException("duration is negative: " + duration);
        }
    }
}
