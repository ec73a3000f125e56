package io.github.txinbox;

/**
 * What the inbox decided for one call of an {@link Inbox @Inbox} method: the outcome of an {@link InboxResult} and of
 * an {@link InboxEvent}, and the {@code outcome} tag of the inbox's metrics (in lower case).
 */
public enum InboxOutcome {
    /** The method ran and the message was processed; the marker commits with the method's writes. */
    PROCESSED,
    /** The method returned {@link InboxResult#skipped}; the marker commits, so a redelivery is a duplicate. */
    SKIPPED,
    /** The method asked for a retry, or the claim conflicted; the transaction rolls back, marker included. */
    RETRY,
    /**
     * Another transaction held the message's marker for longer than
     * {@value InboxSettings#CLAIM_MAX_WAIT}: a copy of the message still being processed, or a transaction left
     * prepared by a crash. The method did not run; the transaction rolls back, and the message comes again as after
     * a {@link #RETRY}. A method that returns an {@link InboxResult} gets a retry; events and metrics tell the two
     * apart.
     */
    HELD,
    /** The id was claimed by a committed transaction before; the method did not run. */
    DUPLICATE,
    /**
     * The method, the claim or the reading of the message id threw an exception other than a retry; the transaction
     * rolls back. Events only: a method that returns never has this outcome.
     */
    FAILURE,
    /**
     * The call had no message id; the method did not run and the transaction rolls back. Events only: a method that
     * returns never has this outcome.
     */
    MISSING_ID
}
