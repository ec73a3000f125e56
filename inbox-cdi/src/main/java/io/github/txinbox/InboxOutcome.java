package io.github.txinbox;

/**
 * What became of one call of an {@link Inbox @Inbox} method: the outcome of an {@link InboxResult} and of an
 * {@link InboxEvent}, and the {@code outcome} tag of the inbox's metrics (in lower case). In an event and a metric it
 * is what the transaction ended with: {@link #PROCESSED}, {@link #SKIPPED} and {@link #DUPLICATE} committed, the
 * others rolled back.
 *
 * <p>A request with a key to an inbox-http's {@code @Idempotent} method is reported the same way: {@link #PROCESSED} a
 * first request whose response was stored, {@link #DUPLICATE} a retry answered with the stored response, {@link #HELD}
 * a copy answered 409 while the first was still running, {@link #KEY_REUSED} (422), {@link #MISSING_ID} (400, no key),
 * {@link #INVALID_KEY} (400, or 403 where keys are kept per caller and there was none), {@link #FAILURE} a method that
 * threw, answered a 5xx or whose response could not be stored, and {@link #ROLLED_BACK} one whose transaction did not
 * commit. A request without a key to a method whose key is optional is not reported.
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
    MISSING_ID,
    /**
     * The method returned (processed or skipped), or the message was a duplicate, but the transaction did not commit:
     * the method or a call it made marked it for rollback, or its commit failed (a deferred constraint, a lost
     * connection, a timeout). The marker rolled back with the method's writes, so the message is delivered again.
     * Events only: what the caller saw is the exception of a failed commit, an {@link InboxRolledBackException} when
     * the transaction was the call's own, or a normal return inside its caller's transaction, which then rolls back.
     */
    ROLLED_BACK,
    /**
     * inbox-http's {@code @Idempotent} only: the key came before with another request (another method, path, query or
     * body), whose response is stored; the request was answered 422 and the method did not run. Events only.
     */
    KEY_REUSED,
    /**
     * inbox-http's {@code @Idempotent} only: the key was not valid (empty, not printable ASCII, too long, sent twice), or
     * the method keeps keys per caller and the request had no authenticated caller; the request was answered 400 or
     * 403 and the method did not run. Events only.
     */
    INVALID_KEY
}
