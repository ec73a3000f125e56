package io.github.txinbox;

import jakarta.persistence.PersistenceException;

/**
 * Thrown by {@link InboxRepository#claim} when the claim conflicted with a concurrent transaction and PostgreSQL
 * aborted this one: a serialization failure (SQLSTATE 40001: under REPEATABLE READ or SERIALIZABLE, another
 * transaction committed the same marker after this transaction's snapshot) or a deadlock (40P01). The transaction is
 * marked for rollback; a fresh attempt resolves the conflict (after a 40001, it finds the committed marker: a
 * duplicate). The {@link Inbox @Inbox} interceptor treats it as a retry.
 */
public class InboxConflictException extends PersistenceException {

    private static final long serialVersionUID = 1L;

    /** The SQLSTATE the database failed the claim with. */
    private final String sqlState;

    /**
     * Creates the exception.
     *
     * @param message  what conflicted, with the SQLSTATE
     * @param sqlState the SQLSTATE: {@code 40001} or {@code 40P01}
     * @param cause    the failed statement's exception, whose cause chain holds that SQLSTATE
     */
    public InboxConflictException(String message, String sqlState, Throwable cause) {
        super(message, cause);
        this.sqlState = sqlState;
    }

    /**
     * Returns the SQLSTATE the database failed the claim with.
     *
     * @return {@code 40001} ({@code serialization_failure}) or {@code 40P01} ({@code deadlock_detected})
     */
    public String sqlState() {
        return sqlState;
    }
}
