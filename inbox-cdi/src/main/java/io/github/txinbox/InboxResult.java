package io.github.txinbox;

import java.util.Objects;

/**
 * What an {@link Inbox @Inbox} method did with its message; an immutable value. A method may return it to tell the
 * inbox to skip or retry a message; the inbox returns {@link #duplicate()} in place of a method it did not invoke.
 */
public final class InboxResult {

    private static final InboxResult PROCESSED = new InboxResult(InboxOutcome.PROCESSED, null);
    private static final InboxResult DUPLICATE = new InboxResult(InboxOutcome.DUPLICATE, null);

    private final InboxOutcome outcome;
    private final String reason;

    private InboxResult(InboxOutcome outcome, String reason) {
        this.outcome = outcome;
        this.reason = reason;
    }

    /**
     * The message was processed.
     *
     * @return the result
     */
    public static InboxResult processed() {
        return PROCESSED;
    }

    /**
     * The message was processed before, so the method was not invoked. Returned by the inbox only: a method that
     * returns it fails with an {@link IllegalStateException} and its transaction rolls back.
     *
     * @return the result
     */
    public static InboxResult duplicate() {
        return DUPLICATE;
    }

    /**
     * The method decided not to process the message, and never will: the marker commits.
     *
     * @param reason why, for the log; not blank
     * @return the result
     * @throws IllegalArgumentException when the reason is null or blank
     */
    public static InboxResult skipped(String reason) {
        return new InboxResult(InboxOutcome.SKIPPED, requireReason(reason));
    }

    /**
     * The message cannot be processed now: roll back and let the broker deliver it again.
     *
     * @param reason why, for the log; not blank
     * @return the result
     * @throws IllegalArgumentException when the reason is null or blank
     */
    public static InboxResult retry(String reason) {
        return new InboxResult(InboxOutcome.RETRY, requireReason(reason));
    }

    /**
     * Returns the kind of result.
     *
     * @return {@link InboxOutcome#PROCESSED}, {@link InboxOutcome#SKIPPED}, {@link InboxOutcome#RETRY} or
     *         {@link InboxOutcome#DUPLICATE}
     */
    public InboxOutcome outcome() {
        return outcome;
    }

    /**
     * Returns the reason given for a skip or a retry.
     *
     * @return the reason, or {@code null} for a processed or duplicate result
     */
    public String reason() {
        return reason;
    }

    private static String requireReason(String reason) {
        if (reason == null || reason.isBlank()) {
            throw new IllegalArgumentException("An InboxResult reason must not be null or blank");
        }
        return reason;
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof InboxResult that && outcome == that.outcome && Objects.equals(reason, that.reason);
    }

    @Override
    public int hashCode() {
        return Objects.hash(outcome, reason);
    }

    @Override
    public String toString() {
        return reason == null ? outcome.name() : outcome + " (" + reason + ")";
    }
}
