package io.github.txinbox;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The purge's turn ({@link Sql#PURGE_TURN}) and its batch ({@link Sql#DELETE_EXPIRED_BATCH}) against a real
 * PostgreSQL, over plain JDBC: the turn's key, its bound (which also limits the delete's wait for a locked marker) and
 * the {@code lock_timeout} put back after the batch, and that a batch which waited for its turn deletes a full batch
 * of what the batch before it left.
 */
class PurgeStatementTest {

    private static final String FROM = "0001-01-01T00:00:00Z";
    private static final String CUTOFF = "2002-01-01T00:00:00Z";

    private static EmbeddedPostgres server;

    @BeforeAll
    static void start() throws Exception {
        server = EmbeddedPostgres.builder().setServerConfig("listen_addresses", "127.0.0.1").start();
    }

    @AfterAll
    static void stop() throws Exception {
        server.close();
    }

    /** A fresh table with 30 markers from 2001, one a minute, all before the cutoff. */
    @BeforeEach
    void freshTable() throws SQLException {
        try (Connection connection = connect(); Statement statement = connection.createStatement()) {
            statement.execute("DROP TABLE IF EXISTS inbox");
            statement.execute(InboxSchema.createTableSql(InboxTable.DEFAULT));
            statement.execute("INSERT INTO inbox (scope, message_id, processed_at) SELECT 'orders', 'm-' || i, "
                    + "timestamptz '2001-01-01 00:00:00+00' + i * interval '1 minute' FROM generate_series(1, 30) i");
        }
    }

    private static Connection connect() throws SQLException {
        return server.getPostgresDatabase().getConnection();
    }

    private static Connection inTransaction() throws SQLException {
        Connection connection = connect();
        connection.setAutoCommit(false);
        return connection;
    }

    /** Takes the turn in the connection's transaction; returns what the statement returns. */
    private static String turn(Connection connection, String bound) throws SQLException {
        try (PreparedStatement statement = Sql.Jdbc.of(Sql.PURGE_TURN)
                .prepare(connection, InboxTable.DEFAULT.quotedName(), bound);
                ResultSet row = statement.executeQuery()) {
            assertTrue(row.next());
            return row.getString(1);
        }
    }

    /** Deletes one batch in the connection's transaction; returns how many it deleted. */
    private static int batch(Connection connection, int limit) throws SQLException {
        // The range and the limit as literals: the limit is a number, which the JDBC form binds only as text.
        String sql = Sql.forTable(Sql.DELETE_EXPIRED_BATCH, InboxTable.DEFAULT).replace("?1", "'" + FROM + "'")
                .replace("?2", "'" + CUTOFF + "'").replace("?3", Integer.toString(limit));
        try (Statement statement = connection.createStatement(); ResultSet row = statement.executeQuery(sql)) {
            assertTrue(row.next());
            String result = row.getString(1);
            return Integer.parseInt(result.substring(0, result.indexOf('/')));
        }
    }

    private static String query(Connection connection, String sql) throws SQLException {
        try (Statement statement = connection.createStatement(); ResultSet row = statement.executeQuery(sql)) {
            assertTrue(row.next());
            return row.getString(1);
        }
    }

    private static long markers() throws SQLException {
        try (Connection connection = connect()) {
            return Long.parseLong(query(connection, "SELECT count(*) FROM inbox"));
        }
    }

    @Test
    void theTurnIsTheDocumentedAdvisoryLockAndItsBoundLastsUntilTheRestore() throws SQLException {
        try (Connection connection = inTransaction()) {
            query(connection, "SELECT set_config('lock_timeout', '7s', true)");
            assertEquals("300ms", turn(connection, "300ms"));
            assertEquals("300ms", query(connection, "SHOW lock_timeout"), "the bound, for the batch's delete");
            assertEquals(10, batch(connection, 10));
            assertEquals("7s", query(connection, Sql.RESTORE_LOCK_TIMEOUT));
            assertEquals("7s", query(connection, "SHOW lock_timeout"));
            assertEquals("1954048354 " + query(connection, "SELECT CAST(CAST(to_regclass('inbox') AS oid) AS integer)"),
                    query(connection, "SELECT classid || ' ' || objid FROM pg_locks WHERE locktype = 'advisory' "
                            + "AND pid = pg_backend_pid() AND granted"));
            connection.rollback();
        }
    }

    @Test
    @Timeout(value = 20, unit = TimeUnit.SECONDS)
    void aTurnHeldElsewhereFailsTheWaitAfterTheBound() throws SQLException {
        try (Connection holder = inTransaction(); Connection waiter = inTransaction()) {
            turn(holder, "300ms");
            long started = System.nanoTime();
            SQLException failed = assertThrows(SQLException.class, () -> turn(waiter, "300ms"));
            long millis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started);
            assertEquals(SqlStates.LOCK_NOT_AVAILABLE, failed.getSQLState());
            assertTrue(millis >= 250 && millis < 5_000, "gave up after " + millis + " ms");
            holder.rollback();
            waiter.rollback();
        }
        assertEquals(30, markers());
    }

    @Test
    @Timeout(value = 20, unit = TimeUnit.SECONDS)
    void aMarkerLockedElsewhereFailsTheDeleteAfterTheTurnsBound() throws SQLException {
        try (Connection holder = inTransaction(); Connection purger = inTransaction()) {
            query(holder, "SELECT message_id FROM inbox WHERE message_id = 'm-3' FOR UPDATE");
            turn(purger, "300ms");
            long started = System.nanoTime();
            SQLException failed = assertThrows(SQLException.class, () -> batch(purger, 10));
            long millis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started);
            assertEquals(SqlStates.LOCK_NOT_AVAILABLE, failed.getSQLState());
            assertTrue(millis >= 250 && millis < 5_000, "gave up after " + millis + " ms");
            purger.rollback();
            holder.rollback();
        }
        assertEquals(30, markers());
    }

    @Test
    @Timeout(value = 30, unit = TimeUnit.SECONDS)
    void aBatchThatWaitedForItsTurnDeletesAFullBatchOfWhatIsLeft() throws Exception {
        try (Connection first = inTransaction(); Connection second = inTransaction()) {
            turn(first, "10s");
            assertEquals(10, batch(first, 10));
            CompletableFuture<Integer> waited = CompletableFuture.supplyAsync(() -> {
                try {
                    turn(second, "10s");
                    int deleted = batch(second, 10);
                    second.commit();
                    return deleted;
                } catch (SQLException e) {
                    throw new IllegalStateException(e);
                }
            });
            awaitWaitingForTheTurn();
            first.commit();
            // Its delete starts after the first batch's commit, so it sees that batch's rows gone and takes ten others.
            assertEquals(10, waited.get(20, TimeUnit.SECONDS));
        }
        assertEquals(10, markers());
    }

    private static void awaitWaitingForTheTurn() throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        try (Connection watcher = connect()) {
            while (!"1".equals(query(watcher, "SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' "
                    + "AND NOT granted"))) {
                if (System.nanoTime() > deadline) {
                    throw new AssertionError("the second batch never waited for its turn");
                }
                Thread.sleep(10);
            }
        }
    }
}
