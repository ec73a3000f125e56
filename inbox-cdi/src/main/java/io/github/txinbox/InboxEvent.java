package io.github.txinbox;

import java.time.Duration;
import java.util.Objects;

/**
 * What became of one call of an {@link Inbox @Inbox} method, or of one request with a key to an
 * {@code @Idempotent} method of inbox-http ({@link InboxOutcome} says which outcomes a request has), fired as a
 * synchronous CDI event once the call's transaction has ended, once per call that had an active transaction. Observe it
 * with {@code @Observes InboxEvent}.
 *
 * <p>The outcome is what the transaction ended with: {@link InboxOutcome#PROCESSED}, {@link InboxOutcome#SKIPPED}
 * and {@link InboxOutcome#DUPLICATE} committed; {@link InboxOutcome#ROLLED_BACK} is a call that returned (or was a
 * duplicate) whose transaction did not commit; {@link InboxOutcome#RETRY}, {@link InboxOutcome#HELD},
 * {@link InboxOutcome#FAILURE} and {@link InboxOutcome#MISSING_ID} rolled back as decided.
 *
 * <p>Observers run after the transaction ended, outside it, on the thread that ended it (the caller's, unless a
 * timeout rolled it back on another): an observer that writes to a database does so on a connection or in a
 * transaction of its own, and a transaction-phase observer ({@code during = ...}) is called at once. Their time adds to
 * the message's. An exception from an observer is logged and changes nothing. {@code @ObservesAsync} observers are not
 * notified. A crash between the commit and the observers loses the event: the inbox table, not the events, is the
 * ledger.
 *
 * @param scope     the deduplication scope
 * @param messageId the message id, or the request's key; {@code null} for {@link InboxOutcome#MISSING_ID}, for
 *                  {@link InboxOutcome#FAILURE} when reading the id failed, and for {@link InboxOutcome#INVALID_KEY}
 *                  when the key was not valid
 * @param outcome   what the call's transaction ended with
 * @param reason    why, for {@link InboxOutcome#SKIPPED} and {@link InboxOutcome#RETRY} (the reason given, or the
 *                  SQLSTATE of a conflicting claim), {@link InboxOutcome#HELD} (how long the claim waited, and for what),
 *                  {@link InboxOutcome#FAILURE} (the exception's class and message),
 *                  {@link InboxOutcome#MISSING_ID} (what was missing), {@link InboxOutcome#ROLLED_BACK} (what was
 *                  decided, and why it did not commit), {@link InboxOutcome#KEY_REUSED} and
 *                  {@link InboxOutcome#INVALID_KEY} (what was wrong with the key); {@code null} otherwise
 * @param duration  from the interceptor's start to the end of the transaction: the claim, the method when it ran, and
 *                  the commit or rollback; not negative
 * @param method    the intercepted method, as {@code fully.qualified.BeanClass.method}
 */
public record InboxEvent(String scope, String messageId, InboxOutcome outcome, String reason, Duration duration,
        String method) {


    /**
     * Checks the event.
     *
     * @throws NullPointerException     when the scope, the outcome, the duration or the method is null, or the
     *                                  message id is null for any outcome but {@link InboxOutcome#MISSING_ID},
     *                                  {@link InboxOutcome#FAILURE} and {@link InboxOutcome#INVALID_KEY}
     * @throws IllegalArgumentException when the duration is negative
     */
    public InboxEvent {
        Objects.requireNonNull(scope, "scope");
        Objects.requireNonNull(outcome, "outcome");
        Objects.requireNonNull(duration, "duration");
        Objects.requireNonNull(method, "method");
        if (outcome != InboxOutcome.MISSING_ID && outcome != InboxOutcome.FAILURE
                && outcome != InboxOutcome.INVALID_KEY) {
            Objects.requireNonNull(messageId, "messageId");
        }
        if (duration.isNegative()) {
            throw new IllegalArgumentException("duration is negative: " + duration);
        }
    }
}
