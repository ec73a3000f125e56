package io.github.txinbox.it.app;

import java.sql.SQLException;

/** Reads the SQLSTATE a test expects from an exception's cause chain, as the library does for itself. */
public final class SqlErrors {

    /** {@code serialization_failure}. */
    public static final String SERIALIZATION_FAILURE = "40001";

    private SqlErrors() {
    }

    /**
     * Returns the SQLSTATE of the first {@link SQLException} in the cause chain.
     *
     * @param thrown the exception
     * @return the SQLSTATE, or {@code null} when the chain holds none
     */
    public static String sqlState(Throwable thrown) {
        for (Throwable t = thrown; t != null; t = t.getCause()) {
            if (t instanceof SQLException sql && sql.getSQLState() != null) {
                return sql.getSQLState();
            }
        }
        return null;
    }
}
