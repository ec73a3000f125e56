package io.github.txinbox;

import java.sql.SQLException;

/**
 * Tells SQL errors apart by SQLSTATE, found in an exception's cause chain (JPA providers wrap the driver's
 * {@link SQLException}); never by message text, which varies by version and locale.
 */
final class SqlStates {

    /** {@code serialization_failure}: under REPEATABLE READ or SERIALIZABLE, a concurrent transaction won. */
    static final String SERIALIZATION_FAILURE = "40001";

    /** {@code deadlock_detected}: PostgreSQL aborted this transaction to break a deadlock. */
    static final String DEADLOCK_DETECTED = "40P01";

    /** {@code lock_not_available}: a lock was not granted within {@code lock_timeout} (or at once, with NOWAIT). */
    static final String LOCK_NOT_AVAILABLE = "55P03";

    private SqlStates() {
    }

    /**
     * Returns the SQLSTATE of the first {@link SQLException} in the cause chain (following
     * {@link SQLException#getNextException()} too).
     *
     * @param thrown the exception
     * @return the SQLSTATE, or {@code null} when the chain holds none
     */
    static String of(Throwable thrown) {
        int depth = 0;
        for (Throwable t = thrown; t != null && depth < 32; t = t.getCause(), depth++) {
            if (t instanceof SQLException sql) {
                for (SQLException e = sql; e != null; e = e.getNextException()) {
                    if (e.getSQLState() != null) {
                        return e.getSQLState();
                    }
                }
            }
        }
        return null;
    }

    /**
     * Whether the exception is a transaction conflict that a fresh attempt resolves: a serialization failure or a
     * deadlock.
     *
     * @param thrown the exception
     * @return whether to retry
     */
    static boolean isTransactionConflict(Throwable thrown) {
        String state = of(thrown);
        return SERIALIZATION_FAILURE.equals(state) || DEADLOCK_DETECTED.equals(state);
    }
}
