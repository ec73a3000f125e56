package io.github.txinbox.it.harness;

import io.github.txinbox.InboxTable;
import io.github.txinbox.dev.LocalPostgres;
import io.github.txinbox.it.app.TestDatabase;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.HashMap;
import java.util.Map;
import java.util.logging.Logger;

/**
 * Provides the PostgreSQL server for one test run (one failsafe JVM), opened first by {@link TestRun}: the server named by {@code txinbox.test.db.url} (system property, or the environment
 * variable {@code TXINBOX_TEST_DB_URL}, with {@code ...user} and {@code ...password} beside it), or else an embedded
 * server on 127.0.0.1 that it starts now and stops when the run ends.
 *
 * <p>Either way it drops and creates the test schemas, then creates the tables from the DDL that txinbox ships, and
 * publishes the connection as the {@code inbox.db.*} system properties.
 */
final class PostgresSession {

    private static final Logger LOG = Logger.getLogger(PostgresSession.class.getName());

    /**
     * The system property that loads {@code pg_stat_statements} into the embedded server (the benchmarks set it); a
     * server the user names is left as it is.
     */
    static final String STATEMENT_STATISTICS = "txinbox.it.postgres.statements";

    private LocalPostgres server;

    /** Starts or reaches the server, creates the test schemas and publishes the connection. */
    void open() {
        String url = setting("txinbox.test.db.url", "TXINBOX_TEST_DB_URL");
        if (url != null) {
            server = LocalPostgres.named(url, setting("txinbox.test.db.user", "TXINBOX_TEST_DB_USER"),
                    setting("txinbox.test.db.password", "TXINBOX_TEST_DB_PASSWORD"));
            LOG.info(() -> "Testing against the PostgreSQL server named by the user: " + url);
        } else {
            try {
                Files.createDirectories(Path.of(System.getProperty("java.io.tmpdir")));
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            // XA datasources prepare transactions when a second resource (a broker) joins; a leg with a non-XA
            // datasource (txinbox.it.datasource=local) runs on PostgreSQL's default, 0, as most servers do.
            Map<String, String> settings = new HashMap<>(Map.of("max_prepared_transactions",
                    Server.nonXa() ? "0" : "32", "max_connections", "100"));
            if (Boolean.getBoolean(STATEMENT_STATISTICS)) {
                // The benchmarks read what each statement costs the server.
                settings.put("shared_preload_libraries", "pg_stat_statements");
            }
            server = LocalPostgres.start(null, settings, true);
            LOG.info(() -> "Started embedded PostgreSQL: " + server.url());
            checkMajorVersion(server);
        }
        System.setProperty("inbox.db.url", server.url());
        System.setProperty("inbox.db.user", server.user() == null ? "" : server.user());
        System.setProperty("inbox.db.password", server.password() == null ? "" : server.password());
        createSchema();
    }

    /** Stops the embedded server, if one was started. */
    void close() {
        if (server != null) {
            server.close();
            server = null;
        }
    }

    /**
     * Fails the run when the embedded server is not the PostgreSQL major version the build asked for (the system
     * property {@code txinbox.it.postgres.major}, set by each leg of the platform matrix), so that a leg cannot pass
     * on the wrong server.
     */
    private static void checkMajorVersion(LocalPostgres server) {
        String expected = System.getProperty("txinbox.it.postgres.major", "");
        long major = server.query("SELECT current_setting('server_version_num')::int / 10000");
        LOG.info(() -> "Embedded server: PostgreSQL " + major);
        if (!expected.isBlank() && major != Integer.parseInt(expected.trim())) {
            throw new IllegalStateException("The build asked for PostgreSQL " + expected.trim()
                    + ", the embedded server is PostgreSQL " + major);
        }
    }

    private static void createSchema() {
        try (Connection connection = TestDatabase.connect(); Statement statement = connection.createStatement()) {
            for (String schema : new String[] {TestDatabase.SCHEMA, TestDatabase.CUSTOM_SCHEMA, TestDatabase.SECOND_SCHEMA}) {
                statement.execute("DROP SCHEMA IF EXISTS " + schema + " CASCADE");
                statement.execute("CREATE SCHEMA " + schema);
            }
            statement.execute(TestDatabase.tableSql(new InboxTable(TestDatabase.SCHEMA, "inbox")));
            // CustomTableIT's table, hash-partitioned by the key as docs/scaling.md describes, and without a default for
            // processed_at, which the start-up check does not ask for: the claim sets it.
            String markers = TestDatabase.CUSTOM_SCHEMA + ".markers";
            statement.execute("CREATE TABLE " + markers + " (scope text COLLATE \"C\" NOT NULL, message_id text "
                    + "COLLATE \"C\" NOT NULL, processed_at timestamptz NOT NULL, PRIMARY KEY (scope, message_id)) "
                    + "PARTITION BY HASH (scope, message_id)");
            for (int partition = 0; partition < 4; partition++) {
                statement.execute("CREATE TABLE " + markers + "_" + partition + " PARTITION OF " + markers
                        + " FOR VALUES WITH (MODULUS 4, REMAINDER " + partition + ")");
            }
            statement.execute("CREATE INDEX markers_processed_at_idx ON " + markers + " (processed_at)");
            statement.execute(TestDatabase.tableSql(new InboxTable(TestDatabase.CUSTOM_SCHEMA, "configured")));
            // InboxHealthIT's, which it takes away and damages.
            statement.execute(TestDatabase.tableSql(new InboxTable(TestDatabase.CUSTOM_SCHEMA, "health")));
            statement.execute(TestDatabase.tableSql(new InboxTable(TestDatabase.SECOND_SCHEMA, "inbox")));
            statement.execute("CREATE TABLE " + TestDatabase.SCHEMA + ".note (id text PRIMARY KEY, text text)");
            statement.execute("CREATE TABLE " + TestDatabase.SCHEMA
                    + ".invoice (id text PRIMARY KEY, consumer text NOT NULL, orderid text NOT NULL)");
            // Every row here breaks its foreign key, which is checked only at commit.
            statement.execute("CREATE TABLE " + TestDatabase.SCHEMA + ".guard_target (id text PRIMARY KEY)");
            statement.execute("CREATE TABLE " + TestDatabase.SCHEMA + ".commit_guard (order_id text REFERENCES "
                    + TestDatabase.SCHEMA + ".guard_target (id) DEFERRABLE INITIALLY DEFERRED)");
            statement.execute("CREATE TABLE " + TestDatabase.SCHEMA + ".handler_stall (order_id text PRIMARY KEY, "
                    + "pid int NOT NULL, released boolean NOT NULL DEFAULT false)");
            // Written outside every JTA transaction, so that it also records attempts that roll back.
            statement.execute("CREATE TABLE " + TestDatabase.SCHEMA + ".handler_call (consumer text NOT NULL, "
                    + "order_id text NOT NULL, delivery int NOT NULL, at timestamptz NOT NULL DEFAULT clock_timestamp())");
            // Every decision of the inbox in the portable suite, also written outside the JTA transaction.
            statement.execute("CREATE TABLE " + TestDatabase.SCHEMA + ".inbox_decision (scope text NOT NULL, "
                    + "message_id text, outcome text NOT NULL, reason text, millis bigint NOT NULL, "
                    + "at timestamptz NOT NULL DEFAULT clock_timestamp())");
            // SeveralNodesIT's: the decisions of each server node, written in the message's transaction.
            statement.execute("CREATE TABLE " + TestDatabase.SCHEMA + ".node_decision (node text NOT NULL, "
                    + "order_id text NOT NULL, outcome text NOT NULL, "
                    + "at timestamptz NOT NULL DEFAULT clock_timestamp())");
        } catch (SQLException e) {
            throw new IllegalStateException("Could not create the test schema in " + System.getProperty("inbox.db.url"),
                    e);
        }
    }

    private static String setting(String property, String environmentVariable) {
        String value = System.getProperty(property);
        if (value == null || value.isBlank()) {
            value = System.getenv(environmentVariable);
        }
        return value == null || value.isBlank() ? null : value;
    }
}
