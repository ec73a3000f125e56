package io.github.txinbox.it.harness;

import io.github.txinbox.it.app.TestDatabase;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.UUID;

/**
 * A transaction of the test's own that holds an order's marker and invoice, as a transaction left in doubt by a crash
 * does: prepared ({@code PREPARE TRANSACTION}) where the database allows it ({@code max_prepared_transactions > 0},
 * the XA legs), else open and unfinished on a connection of its own. Either way it holds the marker's row lock, so a
 * claim of that order waits for it, and its end decides the order: committed, the marker and the invoice are there;
 * rolled back, they never were. Closing it rolls it back if the test did not end it.
 */
public final class HeldMarker implements AutoCloseable {

    /**
     * The claim's bound ({@code txinbox.claim.max-wait}) of the deployments that test held markers: in their
     * MicroProfile Config where the server has it, else a system property of the server (Open Liberty), which every
     * deployment of that leg then shares.
     */
    public static final Duration CLAIM_MAX_WAIT = Duration.ofSeconds(2);

    private final Connection connection;
    private final String gid;
    private boolean ended;

    private HeldMarker(Connection connection, String gid) {
        this.connection = connection;
        this.gid = gid;
    }

    /**
     * Inserts the marker of an order in {@link TestDatabase#INBOX} and its invoice, in a transaction that it then
     * prepares where the database allows it, or leaves open.
     *
     * @param scope    the marker's scope
     * @param consumer the consumer on the invoice
     * @param orderId  the order, the marker's message id
     * @return the held transaction, to be ended by {@link #commit()} or {@link #rollBack()}
     */
    public static HeldMarker hold(String scope, String consumer, String orderId) {
        boolean preparable = TestDatabase.queryLong("SELECT current_setting('max_prepared_transactions')::int") > 0;
        Connection connection = null;
        try {
            connection = TestDatabase.connect();
            connection.setAutoCommit(false);
            try (PreparedStatement marker = TestDatabase.prepare(connection, "INSERT INTO " + TestDatabase.INBOX
                            + " (scope, message_id) VALUES (?, ?)", scope, orderId);
                    PreparedStatement invoice = TestDatabase.prepare(connection, "INSERT INTO " + TestDatabase.SCHEMA
                            + ".invoice (id, consumer, orderid) VALUES (?, ?, ?)", UUID.randomUUID().toString(),
                            consumer, orderId)) {
                marker.executeUpdate();
                invoice.executeUpdate();
            }
            String gid = null;
            if (preparable) {
                // Not in the form of an XA transaction id, so that no server's recovery takes it for its own.
                gid = "txinbox-it-held-" + UUID.randomUUID();
                try (Statement statement = connection.createStatement()) {
                    statement.execute("PREPARE TRANSACTION '" + gid + "'");
                }
            }
            return new HeldMarker(connection, gid);
        } catch (SQLException e) {
            closeQuietly(connection);
            throw new IllegalStateException("Could not hold the marker of " + orderId, e);
        }
    }

    /**
     * Tells whether the transaction is prepared, rather than open.
     *
     * @return whether it is prepared
     */
    public boolean prepared() {
        return gid != null;
    }

    /** Commits the transaction: {@code COMMIT PREPARED}, or a commit on its connection. */
    public void commit() {
        end(true);
    }

    /** Rolls the transaction back: {@code ROLLBACK PREPARED}, or a rollback on its connection. */
    public void rollBack() {
        end(false);
    }

    private void end(boolean commit) {
        if (ended) {
            throw new IllegalStateException("The held transaction has ended already");
        }
        ended = true;
        try {
            if (gid != null) {
                // A prepared transaction belongs to no session: any connection, outside a transaction block, ends it.
                TestDatabase.update((commit ? "COMMIT" : "ROLLBACK") + " PREPARED '" + gid + "'");
            } else if (commit) {
                connection.commit();
            } else {
                connection.rollback();
            }
        } catch (SQLException e) {
            throw new IllegalStateException("Could not end the held transaction", e);
        }
    }

    @Override
    public void close() {
        try {
            if (!ended) {
                rollBack();
            }
        } finally {
            closeQuietly(connection);
        }
    }

    private static void closeQuietly(Connection connection) {
        if (connection != null) {
            try {
                connection.close();
            } catch (SQLException e) {
                // Closed or broken already: nothing is held on it.
            }
        }
    }
}
