package io.github.txinbox.it.app;

import io.github.txinbox.InboxSchema;
import io.github.txinbox.InboxTable;
import io.github.txinbox.http.ResponseSchema;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.UUID;
import org.postgresql.ds.PGSimpleDataSource;

/**
 * The test database as seen beside the container: plain JDBC connections of their own, outside any JTA
 * transaction, for arranging rows, holding locks and checking what was committed. Reads the same
 * {@code inbox.db.*} system properties as the deployment's datasource.
 */
public final class TestDatabase {

    /** The schema every test table lives in; dropped and created again at the start of each test run. */
    public static final String SCHEMA = "txinbox_it";

    /** A second schema, for the test of a configured, schema-qualified table. */
    public static final String CUSTOM_SCHEMA = "txinbox_it_custom";

    /** A third schema, reached through a second datasource and persistence unit. */
    public static final String SECOND_SCHEMA = "txinbox_it_second";

    /** The default inbox table, qualified. */
    public static final String INBOX = SCHEMA + ".inbox";

    private TestDatabase() {
    }

    /**
     * Opens a new connection with autocommit on.
     *
     * @return the connection, to be closed by the caller
     */
    public static Connection connect() throws SQLException {
        return sideDataSource().getConnection();
    }

    /**
     * Opens a new connection to another database of the same server, as the same user, with autocommit on: for
     * statements that PostgreSQL refuses on the current database.
     *
     * @param database the other database, such as {@code template1}
     * @return the connection, to be closed by the caller
     */
    public static Connection connectTo(String database) throws SQLException {
        PGSimpleDataSource dataSource = sideDataSource();
        dataSource.setDatabaseName(database);
        return dataSource.getConnection();
    }

    private static PGSimpleDataSource sideDataSource() {
        PGSimpleDataSource dataSource = new PGSimpleDataSource();
        dataSource.setUrl(System.getProperty("inbox.db.url"));
        dataSource.setUser(System.getProperty("inbox.db.user"));
        dataSource.setPassword(System.getProperty("inbox.db.password"));
        dataSource.setApplicationName("txinbox-it-side-connection");
        return dataSource;
    }

    /**
     * Runs one statement with parameters on a new connection and returns the update count.
     *
     * @return the number of rows changed
     */
    public static int update(String sql, Object... parameters) {
        try (Connection connection = connect(); PreparedStatement statement = prepare(connection, sql, parameters)) {
            return statement.executeUpdate();
        } catch (SQLException e) {
            throw new IllegalStateException("Test SQL failed: " + sql, e);
        }
    }

    /**
     * Runs a query whose first column of its only row is a number.
     *
     * @return that number
     */
    public static long queryLong(String sql, Object... parameters) {
        try (Connection connection = connect();
                PreparedStatement statement = prepare(connection, sql, parameters);
                ResultSet result = statement.executeQuery()) {
            if (!result.next()) {
                throw new IllegalStateException("No row from: " + sql);
            }
            return result.getLong(1);
        } catch (SQLException e) {
            throw new IllegalStateException("Test SQL failed: " + sql, e);
        }
    }

    /**
     * The DDL of an inbox table as the tests use it: the core's table with the columns inbox-http stores responses in.
     *
     * @param table the table
     * @return its DDL
     */
    public static String tableSql(InboxTable table) {
        return InboxSchema.createTableSql(table) + ResponseSchema.addResponseColumnsSql(table);
    }

    /**
     * Runs a query whose first column of its only row is a text.
     *
     * @return that text
     */
    public static String queryString(String sql, Object... parameters) {
        try (Connection connection = connect();
                PreparedStatement statement = prepare(connection, sql, parameters);
                ResultSet result = statement.executeQuery()) {
            if (!result.next()) {
                throw new IllegalStateException("No row from: " + sql);
            }
            return result.getString(1);
        } catch (SQLException e) {
            throw new IllegalStateException("Test SQL failed: " + sql, e);
        }
    }

    /**
     * Counts the committed markers of one key in a table.
     *
     * @return 0 or 1
     */
    public static long markers(String table, String scope, String messageId) {
        return queryLong("SELECT count(*) FROM " + table + " WHERE scope = ? AND message_id = ?", scope, messageId);
    }

    /**
     * Inserts expired markers into the test inbox: {@code expired-1} to {@code expired-<count>}, 1 s apart, oldest
     * first, from 2001-01-01.
     *
     * @param scope the scope
     * @param count how many
     */
    public static void insertExpiredMarkers(String scope, int count) {
        update("INSERT INTO " + INBOX + " (scope, message_id, processed_at) "
                + "SELECT ?, 'expired-' || i, timestamptz '2001-01-01 00:00:00+00' + i * interval '1 second' "
                + "FROM generate_series(1, ?) AS i", scope, count);
    }

    /**
     * Inserts markers processed now into the test inbox: {@code fresh-1} to {@code fresh-<count>}.
     *
     * @param scope the scope
     * @param count how many
     */
    public static void insertFreshMarkers(String scope, int count) {
        update("INSERT INTO " + INBOX + " (scope, message_id) SELECT ?, 'fresh-' || i FROM generate_series(1, ?) AS i",
                scope, count);
    }

    /**
     * Makes every DELETE statement on the test inbox sleep first, so that a purge takes a while, until
     * {@link #fastDeletes()}.
     *
     * @param secondsPerStatement how long each statement sleeps
     */
    public static void slowDeletes(double secondsPerStatement) {
        update("CREATE OR REPLACE FUNCTION " + SCHEMA + ".slow_delete() RETURNS trigger "
                + "LANGUAGE plpgsql AS $$ BEGIN PERFORM pg_sleep(" + secondsPerStatement + "); RETURN NULL; END $$");
        update("CREATE TRIGGER slow_delete BEFORE DELETE ON " + INBOX + " FOR EACH STATEMENT EXECUTE FUNCTION "
                + SCHEMA + ".slow_delete()");
    }

    /** Undoes {@link #slowDeletes}, if it was done. */
    public static void fastDeletes() {
        update("DROP TRIGGER IF EXISTS slow_delete ON " + INBOX);
    }

    /**
     * Returns an order id no other test uses, so that tests share the database without seeing each other's rows.
     *
     * @return {@code order-} and a random UUID
     */
    public static String newOrderId() {
        return "order-" + UUID.randomUUID();
    }

    /**
     * Counts the committed invoices of an order, whichever consumer wrote them.
     *
     * @param orderId the order
     * @return how many
     */
    public static long invoices(String orderId) {
        return queryLong("SELECT count(*) FROM " + SCHEMA + ".invoice WHERE orderid = ?", orderId);
    }

    /**
     * Counts the handler calls for an order, whichever consumer made them, rolled back or not.
     *
     * @param orderId the order
     * @return how many
     */
    public static long handlerCalls(String orderId) {
        return queryLong("SELECT count(*) FROM " + SCHEMA + ".handler_call WHERE order_id = ?", orderId);
    }

    /**
     * Counts the committed invoices of an order written by a consumer (the test application's business effect).
     *
     * @param consumer the consumer's name
     * @param orderId  the order
     * @return how many
     */
    public static long invoices(String consumer, String orderId) {
        return queryLong("SELECT count(*) FROM " + SCHEMA + ".invoice WHERE consumer = ? AND orderid = ?", consumer,
                orderId);
    }

    /**
     * Counts a consumer's handler calls for an order, rolled back or not (they are recorded outside the transaction).
     *
     * @param consumer the consumer's name
     * @param orderId  the order
     * @return how many
     */
    public static long handlerCalls(String consumer, String orderId) {
        return queryLong("SELECT count(*) FROM " + SCHEMA + ".handler_call WHERE consumer = ? AND order_id = ?",
                consumer, orderId);
    }

    /**
     * Counts the inbox's decisions with an outcome on a message, as the portable suite's observer records them
     * ({@code inbox_decision}, written outside the transaction: a decision whose transaction rolled back counts too).
     *
     * @param scope     the inbox scope
     * @param messageId the message id
     * @param outcome   the outcome's name
     * @return how many
     */
    public static long decisions(String scope, String messageId, String outcome) {
        return queryLong("SELECT count(*) FROM " + SCHEMA
                + ".inbox_decision WHERE scope = ? AND message_id = ? AND outcome = ?", scope, messageId, outcome);
    }

    /**
     * Describes a consumer's handler calls for an order, in order: the {@code JMSXDeliveryCount} each saw and the
     * milliseconds since the call before.
     *
     * @param consumer the consumer's name
     * @param orderId  the order
     * @return for example {@code JMSXDeliveryCount=1, JMSXDeliveryCount=2 (+305 ms)}, empty when there was none
     */
    public static String deliveries(String consumer, String orderId) {
        StringBuilder calls = new StringBuilder();
        try (Connection connection = connect();
                PreparedStatement statement = prepare(connection, "SELECT delivery, (extract(epoch FROM "
                        + "at - lag(at) OVER (ORDER BY at)) * 1000)::bigint FROM " + SCHEMA
                        + ".handler_call WHERE consumer = ? AND order_id = ? ORDER BY at", consumer, orderId);
                ResultSet result = statement.executeQuery()) {
            while (result.next()) {
                calls.append(calls.length() == 0 ? "" : ", ").append("JMSXDeliveryCount=").append(result.getInt(1));
                long apart = result.getLong(2);
                calls.append(result.wasNull() ? "" : " (+" + apart + " ms)");
            }
        } catch (SQLException e) {
            throw new IllegalStateException("Could not read the handler calls of " + orderId, e);
        }
        return calls.toString();
    }

    /**
     * Counts the transactions prepared in the test database and neither committed nor rolled back (in doubt).
     *
     * @return how many
     */
    public static long preparedTransactions() {
        return queryLong("SELECT count(*) FROM pg_prepared_xacts WHERE database = current_database()");
    }

    /**
     * Prepares a statement on the given connection, binding the parameters in order.
     *
     * @return the statement, to be closed by the caller
     */
    public static PreparedStatement prepare(Connection connection, String sql, Object... parameters)
            throws SQLException {
        PreparedStatement statement = connection.prepareStatement(sql);
        for (int i = 0; i < parameters.length; i++) {
            statement.setObject(i + 1, parameters[i]);
        }
        return statement;
    }
}
