package io.github.txinbox;

import java.time.Duration;
import java.util.Objects;

/**
 * What the {@link Inbox @Inbox} interceptor decided for one call, fired as a synchronous CDI event once per call
 * that had an active transaction. Observe it with {@code @Observes InboxEvent}.
 *
 * <p>Observers run on the caller's thread, inside its transaction, before the method's result goes back to the
 * container: what they write commits or rolls back with the message (on {@link Outcome#RETRY},
 * {@link Outcome#FAILURE} and {@link Outcome#MISSING_ID} the transaction is already marked for rollback, so their
 * writes are discarded), and the time they take adds to the message's. An exception from an observer is logged and
 * changes nothing: the decision stands. {@code @ObservesAsync} observers are not notified.
 *
 * @param scope     the deduplication scope
 * @param messageId the message id; {@code null} only for {@link Outcome#MISSING_ID}
 * @param outcome   what the inbox decided
 * @param reason    why, for {@link Outcome#SKIPPED} and {@link Outcome#RETRY} (the reason given, or the SQLSTATE of
 *                  a conflicting claim), {@link Outcome#FAILURE} (the exception's class and message) and
 *                  {@link Outcome#MISSING_ID} (what was missing); {@code null} otherwise
 * @param duration  from the interceptor's start to its decision: the claim, and the method when it ran; not negative
 * @param method    the intercepted method, as {@code fully.qualified.BeanClass.method}
 */
public record InboxEvent(String scope, String messageId, Outcome outcome, String reason, Duration duration,
        String method) {

    /** What the inbox decided for a call. */
    public enum Outcome {
        /** The method ran and the message was processed; the marker commits with the method's writes. */
        PROCESSED,
        /** The method returned {@link InboxResult#skipped}; the marker commits. */
        SKIPPED,
        /** The method asked for a retry, or the claim conflicted; the transaction rolls back. */
        RETRY,
        /** The id was claimed by a committed transaction before; the method did not run. */
        DUPLICATE,
        /** The method (or the claim) threw an exception other than a retry; the transaction rolls back. */
        FAILURE,
        /** The call had no message id; the method did not run and the transaction rolls back. */
        MISSING_ID
    }

    /**
     * Checks the event.
     *
     * @throws NullPointerException     when the scope, the outcome, the duration or the method is null, or the
     *                                  message id is null for any outcome but {@link Outcome#MISSING_ID}
     * @throws IllegalArgumentException when the duration is negative
     */
    public InboxEvent {
        Objects.requireNonNull(scope, "scope");
        Objects.requireNonNull(outcome, "outcome");
        Objects.requireNonNull(duration, "duration");
        Objects.requireNonNull(method, "method");
        if (outcome != Outcome.MISSING_ID) {
            Objects.requireNonNull(messageId, "messageId");
        }
        if (duration.isNegative()) {
            throw new IllegalArgumentException("duration is negative: " + duration);
        }
    }
}
