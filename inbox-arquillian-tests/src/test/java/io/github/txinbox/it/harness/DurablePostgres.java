package io.github.txinbox.it.harness;

import io.github.txinbox.InboxSchema;
import io.github.txinbox.InboxTable;
import io.github.txinbox.it.app.TestDatabase;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;

/**
 * A second embedded PostgreSQL, on 127.0.0.1, that flushes every commit to disk as a production server does:
 * {@code fsync} and {@code synchronous_commit} on (the session's embedded server runs with both off, which makes a
 * commit cost no disk flush), and {@code max_prepared_transactions} above 0 for XA. It holds the inbox table and the
 * invoice table of the test schema, and nothing else. For the benchmarks whose figure is the price of a flush.
 */
public final class DurablePostgres implements AutoCloseable {

    private final EmbeddedPostgres server;

    private DurablePostgres(EmbeddedPostgres server) {
        this.server = server;
    }

    /**
     * Starts the server and creates its tables, and a login role of the given name where that is not the embedded
     * server's own {@code postgres} (it trusts local connections: no password is checked).
     *
     * @param user the role the deployments connect as
     * @return the running server; close it to stop it
     * @throws IllegalStateException when the started server does not flush its commits
     */
    public static DurablePostgres start(String user) {
        EmbeddedPostgres server;
        try {
            server = EmbeddedPostgres.builder()
                    .setServerConfig("listen_addresses", "127.0.0.1")
                    .setServerConfig("fsync", "on")
                    .setServerConfig("synchronous_commit", "on")
                    .setServerConfig("max_prepared_transactions", "32")
                    .setServerConfig("max_connections", "100")
                    .start();
        } catch (IOException e) {
            throw new UncheckedIOException("Could not start the durable embedded PostgreSQL", e);
        }
        DurablePostgres durable = new DurablePostgres(server);
        try {
            String settings = durable.queryText("SELECT current_setting('fsync') || ' ' "
                    + "|| current_setting('synchronous_commit')");
            if (!settings.equals("on on")) {
                throw new IllegalStateException("fsync and synchronous_commit should be on, are " + settings);
            }
            if (!user.equals("postgres")) {
                durable.execute("CREATE ROLE \"" + user.replace("\"", "\"\"") + "\" LOGIN SUPERUSER");
            }
            durable.execute("CREATE SCHEMA " + TestDatabase.SCHEMA);
            durable.execute(InboxSchema.createTableSql(new InboxTable(TestDatabase.SCHEMA, "inbox")));
            durable.execute("CREATE TABLE " + TestDatabase.SCHEMA
                    + ".invoice (id text PRIMARY KEY, consumer text NOT NULL, orderid text NOT NULL)");
        } catch (RuntimeException e) {
            durable.close();
            throw e;
        }
        return durable;
    }

    /**
     * Returns the JDBC URL of its database; the user and password are the session's embedded server's.
     *
     * @return the URL
     */
    public String url() {
        return "jdbc:postgresql://127.0.0.1:" + server.getPort() + "/postgres";
    }

    /**
     * Opens a connection to its database, as the embedded server's own user.
     *
     * @return the connection, to be closed by the caller
     */
    public Connection connect() throws SQLException {
        return server.getPostgresDatabase().getConnection();
    }

    /**
     * Runs one statement.
     *
     * @param sql the statement
     */
    public void execute(String sql) {
        try (Connection connection = connect(); Statement statement = connection.createStatement()) {
            statement.execute(sql);
        } catch (SQLException e) {
            throw new IllegalStateException("Failed on the durable PostgreSQL: " + sql, e);
        }
    }

    /**
     * Runs a query whose result is one number.
     *
     * @param sql the query
     * @return the number
     */
    public long queryLong(String sql) {
        return Long.parseLong(queryText(sql));
    }

    private String queryText(String sql) {
        try (Connection connection = connect(); Statement statement = connection.createStatement();
                ResultSet result = statement.executeQuery(sql)) {
            result.next();
            return result.getString(1);
        } catch (SQLException e) {
            throw new IllegalStateException("Failed on the durable PostgreSQL: " + sql, e);
        }
    }

    @Override
    public void close() {
        try {
            server.close();
        } catch (IOException e) {
            throw new UncheckedIOException("Could not stop the durable embedded PostgreSQL", e);
        }
    }
}
