package io.github.txinbox.sample.launcher;

import io.github.txinbox.InboxSchema;
import io.github.txinbox.InboxTable;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;

/**
 * The sample's PostgreSQL: the server named by {@code TXINBOX_SAMPLE_DB_URL}, or else one started here on
 * 127.0.0.1 from the binaries Maven brought, with PostgreSQL's stock settings (and prepared transactions allowed
 * when the sample runs with XA).
 *
 * @param embedded the server started here; {@code null} for a named one, which is left alone
 */
record Database(EmbeddedPostgres embedded, String url, String user, String password) implements AutoCloseable {

    /** Whether the environment names a PostgreSQL server ({@code TXINBOX_SAMPLE_DB_URL}) to use instead of its own. */
    static boolean named() {
        return !System.getenv().getOrDefault("TXINBOX_SAMPLE_DB_URL", "").isBlank();
    }

    /** Connects to the server named by the environment, or starts one. */
    static Database open(Path target, boolean xa) {
        if (named()) {
            return new Database(null, System.getenv("TXINBOX_SAMPLE_DB_URL"),
                    System.getenv().getOrDefault("TXINBOX_SAMPLE_DB_USER", "postgres"),
                    System.getenv().getOrDefault("TXINBOX_SAMPLE_DB_PASSWORD", "postgres"));
        }
        EmbeddedPostgres.Builder builder = EmbeddedPostgres.builder()
                .setOverrideWorkingDirectory(target.resolve("postgres").toFile())
                // The launcher stops PostgreSQL itself, after the server that uses it.
                .setRegisterShutdownHook(false)
                .setServerConfig("listen_addresses", "127.0.0.1");
        if (xa) {
            // One prepared transaction per MDB transaction in flight: Payara's MDB pool holds up to 32 by default.
            builder.setServerConfig("max_prepared_transactions", "64");
        }
        try {
            EmbeddedPostgres postgres = builder.start();
            return new Database(postgres, "jdbc:postgresql://127.0.0.1:" + postgres.getPort() + "/postgres",
                    "postgres", "postgres");
        } catch (IOException e) {
            throw new LauncherException("PostgreSQL did not start: " + e.getMessage());
        }
    }

    /**
     * Creates the sample's tables where they are missing (the inbox's from txinbox's own DDL), and plants expired
     * markers for the scheduled purge to delete.
     *
     * @param xa whether the sample will run with XA, which needs prepared transactions
     */
    void prepare(boolean xa, int expiredMarkers) {
        if (xa && maxPreparedTransactions() == 0) {
            throw new LauncherException("XA needs max_prepared_transactions > 0 on " + url + ", and it is 0. "
                    + "Run the sample without TXINBOX_SAMPLE_XA, or raise the setting and restart PostgreSQL.");
        }
        List<String> statements = List.of(InboxSchema.createTableSql(InboxTable.DEFAULT),
                "CREATE TABLE IF NOT EXISTS sample_invoice (id text PRIMARY KEY, order_id text NOT NULL, "
                        + "amount numeric(12, 2) NOT NULL, created_at timestamptz NOT NULL)",
                "CREATE INDEX IF NOT EXISTS sample_invoice_order_idx ON sample_invoice (order_id)",
                "INSERT INTO inbox (scope, message_id, processed_at) SELECT 'expired-demo', 'old-' || i, "
                        + "timestamptz '2001-01-01 00:00:00+00' FROM generate_series(1, " + expiredMarkers + ") AS i "
                        + "ON CONFLICT DO NOTHING");
        try (Connection connection = DriverManager.getConnection(url, user, password);
                Statement statement = connection.createStatement()) {
            for (String sql : statements) {
                try {
                    statement.execute(sql);
                } catch (SQLException e) {
                    throw new LauncherException("Could not prepare the sample's tables on " + url + " as " + user
                            + ": " + e.getMessage() + "\n  in: " + sql);
                }
            }
        } catch (SQLException e) {
            throw new LauncherException("Could not connect to " + url + " as " + user + ": " + e.getMessage());
        }
    }

    /** PostgreSQL's {@code max_prepared_transactions}: 0 (its default) allows no XA. */
    long maxPreparedTransactions() {
        return count("SELECT current_setting('max_prepared_transactions')::int");
    }

    /** Runs a query whose answer is one number. */
    long count(String query) {
        try (Connection connection = DriverManager.getConnection(url, user, password);
                Statement statement = connection.createStatement(); ResultSet rows = statement.executeQuery(query)) {
            rows.next();
            return rows.getLong(1);
        } catch (SQLException e) {
            throw new LauncherException("Query failed on " + url + " as " + user + " (" + query + "): "
                    + e.getMessage());
        }
    }

    /** Stops the embedded server; leaves a named one alone. */
    @Override
    public void close() {
        if (embedded != null) {
            try {
                embedded.close();
            } catch (IOException e) {
                System.err.println("Could not stop PostgreSQL: " + e.getMessage());
            }
        }
    }
}
