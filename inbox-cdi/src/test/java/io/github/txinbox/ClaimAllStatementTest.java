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
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The batch claim's statement ({@link Sql#CLAIM_ALL}) and the ids' encoding ({@link Sql#textArray}) against a real
 * PostgreSQL, over plain JDBC: which positions it returns, that every id arrives as it was sent, and that its bound
 * holds for every row of the batch, not only the first, and is put back after it.
 */
class ClaimAllStatementTest {

    private static EmbeddedPostgres server;

    @BeforeAll
    static void start() throws Exception {
        server = EmbeddedPostgres.builder().setServerConfig("listen_addresses", "127.0.0.1").start();
    }

    @AfterAll
    static void stop() throws Exception {
        server.close();
    }

    @BeforeEach
    void freshTable() throws SQLException {
        try (Connection connection = connect(); Statement statement = connection.createStatement()) {
            statement.execute("DROP TABLE IF EXISTS inbox");
            statement.execute(InboxSchema.createTableSql(InboxTable.DEFAULT));
        }
    }

    private static Connection connect() throws SQLException {
        return server.getPostgresDatabase().getConnection();
    }

    /** Runs the statement in the connection's transaction: the positions claimed, and the lock_timeout after it. */
    private static String[] claimAll(Connection connection, String scope, List<String> ids, String bound)
            throws SQLException {
        try (PreparedStatement statement = Sql.Jdbc.of(Sql.forTable(Sql.CLAIM_ALL, InboxTable.DEFAULT))
                .prepare(connection, scope, Sql.textArray(ids), bound)) {
            try (ResultSet row = statement.executeQuery()) {
                assertTrue(row.next());
                String result = row.getString(1);
                int slash = result.indexOf('/');
                return new String[] {result.substring(0, slash), result.substring(slash + 1)};
            }
        }
    }

    private static List<String> ids(Connection connection, String scope) throws SQLException {
        try (PreparedStatement select = connection.prepareStatement(
                "SELECT message_id FROM inbox WHERE scope = ? ORDER BY message_id")) {
            select.setString(1, scope);
            List<String> ids = new ArrayList<>();
            try (ResultSet rows = select.executeQuery()) {
                while (rows.next()) {
                    ids.add(rows.getString(1));
                }
            }
            return ids;
        }
    }

    @Test
    void returnsThePositionsOfTheNewIdsOnly() throws SQLException {
        try (Connection connection = connect()) {
            assertEquals("1", claimAll(connection, "orders", List.of("b"), "10000ms")[0]);
            assertEquals("1,3", claimAll(connection, "orders", List.of("a", "b", "c"), "10000ms")[0]);
            assertEquals("", claimAll(connection, "orders", List.of("a", "b", "c"), "10000ms")[0]);
            assertEquals("1,2,3", claimAll(connection, "billing", List.of("a", "b", "c"), "10000ms")[0]);
            assertEquals(List.of("a", "b", "c"), ids(connection, "orders"));
        }
    }

    /** The repository sends each id once; a statement given one twice still writes one marker, and fails nothing. */
    @Test
    void anIdTwiceInOneStatementIsWrittenOnce() throws SQLException {
        try (Connection connection = connect()) {
            assertEquals("1,2", claimAll(connection, "orders", List.of("a", "a"), "10000ms")[0]);
            assertEquals(List.of("a"), ids(connection, "orders"));
        }
    }

    @Test
    void everyIdArrivesAsItWasSent() throws SQLException {
        List<String> awkward = List.of("quote\"d", "back\\slash", "\\u0041 not an escape", "line\nbreak",
                "tab\tand \u0001 control", "caf\u00e9", "emoji \uD83D\uDE00", "[\"json\",\"in\",\"an\",\"id\"]",
                "comma,slash/", "'single'");
        try (Connection connection = connect()) {
            assertEquals("1,2,3,4,5,6,7,8,9,10", claimAll(connection, "orders", awkward, "10000ms")[0]);
            assertEquals(awkward.stream().sorted(ClaimAllStatementTest::byBytes).toList(), ids(connection, "orders"));
            assertEquals("", claimAll(connection, "orders", awkward, "10000ms")[0]);
        }
    }

    private static int byBytes(String a, String b) {
        return java.util.Arrays.compareUnsigned(a.getBytes(java.nio.charset.StandardCharsets.UTF_8),
                b.getBytes(java.nio.charset.StandardCharsets.UTF_8));
    }

    @Test
    void putsTheTransactionsLockTimeoutBackWhetherItClaimedOrNot() throws SQLException {
        try (Connection connection = connect()) {
            connection.setAutoCommit(false);
            try (Statement statement = connection.createStatement()) {
                statement.execute("SET LOCAL lock_timeout = '7s'");
            }
            assertEquals("7s", claimAll(connection, "orders", List.of("a", "b"), "250ms")[1]);
            assertEquals("7s", claimAll(connection, "orders", List.of("a", "b"), "250ms")[1], "nothing claimed");
            connection.commit();
        }
    }

    /**
     * Another transaction holds the batch's last id. RETURNING runs row by row: had the bound been put back there,
     * after the first row, the wait for the last would be unbounded.
     */
    @Test
    @Timeout(30) // without its bound the statement would wait for the holder for ever
    void theBoundHoldsForTheLastIdOfTheBatch() throws Exception {
        try (Connection holder = connect(); Connection claimer = connect()) {
            holder.setAutoCommit(false);
            try (Statement statement = holder.createStatement()) {
                statement.executeUpdate("INSERT INTO inbox (scope, message_id) VALUES ('orders', 'z')");
            }
            claimer.setAutoCommit(false);
            long start = System.nanoTime();
            SQLException refused = assertThrows(SQLException.class,
                    () -> claimAll(claimer, "orders", List.of("a", "b", "c", "z"), "300ms"));
            long waited = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
            assertEquals("55P03", refused.getSQLState(), refused::getMessage);
            assertTrue(waited >= 300 && waited < 5_000, "waited " + waited + " ms for a bound of 300 ms");
            claimer.rollback();
            holder.rollback();
            assertEquals(List.of(), ids(claimer, "orders"));
        }
    }

    @Test
    void theEncodingEscapesOnlyWhatJsonRequires() {
        assertEquals("[]", Sql.textArray(List.of()));
        assertEquals("[\"a\",\"b\"]", Sql.textArray(List.of("a", "b")));
        assertEquals("[\"\\\"\\\\\\u000a\\u001f\u00e9\"]", Sql.textArray(List.of("\"\\\n\u001f\u00e9")));
    }
}
