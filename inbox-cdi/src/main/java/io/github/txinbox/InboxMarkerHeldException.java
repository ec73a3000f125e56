package io.github.txinbox;

import jakarta.persistence.PersistenceException;

/**
 * Thrown by {@link InboxRepository#claim} when another transaction held the message's marker (inserted it and had not
 * ended) for longer than {@link InboxSettings#claimMaxWait()} ({@value InboxSettings#CLAIM_MAX_WAIT}): a copy of the
 * message still being processed, or a transaction left prepared and in doubt by a crash. PostgreSQL failed the claim
 * with SQLSTATE 55P03 ({@code lock_not_available}), the cause, which aborted the transaction: it is marked for
 * rollback, and the message should come again. The {@link Inbox @Inbox} interceptor reports such a call as
 * {@link InboxOutcome#HELD} and treats it as a retry.
 */
public class InboxMarkerHeldException extends PersistenceException {

    private static final long serialVersionUID = 1L;

    /**
     * Creates the exception.
     *
     * @param message how long the claim waited, and for what
     * @param cause   the failed statement's exception, whose cause chain holds SQLSTATE 55P03
     */
    public InboxMarkerHeldException(String message, Throwable cause) {
        super(message, cause);
    }
}
