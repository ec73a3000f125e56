package io.github.txinbox.it.harness;

import io.github.txinbox.InboxTable;
import io.github.txinbox.dev.ChildProcess;
import io.github.txinbox.dev.LocalPostgres;
import io.github.txinbox.it.app.TestDatabase;
import io.zonky.test.db.postgres.util.LinuxUtils;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A second embedded PostgreSQL, on 127.0.0.1, that flushes every commit to disk as a production server does:
 * {@code fsync} and {@code synchronous_commit} on (the session's embedded server runs with both off, which makes a
 * commit cost no disk flush), and {@code max_prepared_transactions} above 0 for XA. It holds the inbox table and the
 * invoice table of the test schema, its records of handler calls and of the inbox's decisions, and its crash points'
 * {@code handler_stall}, and nothing else. For the benchmarks whose figure
 * is the price of a flush, and for the test that stops and starts the database under a running server
 * ({@link #stop}, {@link #start()}): with every commit flushed, a crash of PostgreSQL loses no commit it has
 * acknowledged.
 */
public final class DurablePostgres implements AutoCloseable {

    /** How PostgreSQL is stopped: the modes of {@code pg_ctl stop}. */
    public enum Shutdown {
        /** Sessions are ended and their transactions rolled back, then the server writes a checkpoint and stops. */
        FAST,
        /** The server stops at once, as if it crashed; it recovers from its write-ahead log when it starts again. */
        IMMEDIATE
    }

    private static final Pattern QUOTED = Pattern.compile("\"((?:[^\"\\\\]|\\\\.)*)\"");

    private final LocalPostgres server;

    /** The data directory, read once while the server runs and kept for when it does not. */
    private Path dataDirectory;

    private DurablePostgres(LocalPostgres server) {
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
        return start(user, true);
    }

    /**
     * Starts the server as {@link #start(String)} does, with or without prepared transactions.
     *
     * @param user                 the role the deployments connect as
     * @param preparedTransactions {@code max_prepared_transactions} above 0, for XA; or at PostgreSQL's default, 0
     * @return the running server; close it to stop it
     */
    public static DurablePostgres start(String user, boolean preparedTransactions) {
        LocalPostgres server = LocalPostgres.start(null, Map.of("fsync", "on", "synchronous_commit", "on",
                "max_prepared_transactions", preparedTransactions ? "32" : "0", "max_connections", "100"), true);
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
            durable.execute(TestDatabase.tableSql(new InboxTable(TestDatabase.SCHEMA, "inbox")));
            durable.execute("CREATE TABLE " + TestDatabase.SCHEMA
                    + ".invoice (id text PRIMARY KEY, consumer text NOT NULL, orderid text NOT NULL)");
            durable.execute("CREATE TABLE " + TestDatabase.SCHEMA + ".handler_call (consumer text NOT NULL, "
                    + "order_id text NOT NULL, delivery int NOT NULL, "
                    + "at timestamptz NOT NULL DEFAULT clock_timestamp())");
            durable.execute("CREATE TABLE " + TestDatabase.SCHEMA + ".handler_stall (order_id text PRIMARY KEY, "
                    + "pid int NOT NULL, released boolean NOT NULL DEFAULT false)");
            durable.execute("CREATE TABLE " + TestDatabase.SCHEMA + ".inbox_decision (scope text NOT NULL, "
                    + "message_id text, outcome text NOT NULL, reason text, "
                    + "at timestamptz NOT NULL DEFAULT clock_timestamp())");
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
        return server.url();
    }

    /**
     * Opens a connection to its database, as the embedded server's own user.
     *
     * @return the connection, to be closed by the caller
     */
    public Connection connect() throws SQLException {
        return server.connect();
    }

    /**
     * Runs one statement.
     *
     * @param sql the statement
     */
    public void execute(String sql) {
        server.query(sql);
    }

    /**
     * Runs one statement with parameters.
     *
     * @param sql        the statement
     * @param parameters its parameters
     * @return the number of rows it changed
     */
    public int update(String sql, Object... parameters) {
        try (Connection connection = connect();
                PreparedStatement statement = TestDatabase.prepare(connection, sql, parameters)) {
            return statement.executeUpdate();
        } catch (SQLException e) {
            throw new IllegalStateException("Failed on the durable PostgreSQL: " + sql, e);
        }
    }

    /**
     * Runs a query whose result is one number.
     *
     * @param sql        the query
     * @param parameters its parameters
     * @return the number
     */
    public long queryLong(String sql, Object... parameters) {
        return Long.parseLong(queryText(sql, parameters));
    }

    private String queryText(String sql, Object... parameters) {
        try (Connection connection = connect();
                PreparedStatement statement = TestDatabase.prepare(connection, sql, parameters);
                ResultSet result = statement.executeQuery()) {
            result.next();
            return result.getString(1);
        } catch (SQLException e) {
            throw new IllegalStateException("Failed on the durable PostgreSQL: " + sql, e);
        }
    }

    /**
     * Stops the server with {@code pg_ctl stop} in the given mode and waits until it has stopped. Its data directory,
     * port and settings stay for {@link #start()}.
     *
     * @param mode fast, or immediate (a crash)
     */
    public void stop(Shutdown mode) {
        Path data = dataDirectory();
        pgCtl(postmasterOpts(data),
                List.of("-D", data.toString(), "-m", mode.name().toLowerCase(), "-w", "-t", "60", "stop"));
    }

    /**
     * Starts the server again after {@link #stop}, with the same data directory, port and settings (those it was
     * first started with, which PostgreSQL keeps in {@code postmaster.opts}), and waits until it accepts connections.
     */
    public void start() {
        Path data = dataDirectory();
        String opts = postmasterOpts(data);
        pgCtl(opts, List.of("-D", data.toString(), "-o", String.join(" ", startOptions(opts)), "-l",
                data.resolve("restarted.log").toString(), "-w", "-t", "60", "start"));
    }

    private synchronized Path dataDirectory() {
        if (dataDirectory == null) {
            dataDirectory = Path.of(queryText("SHOW data_directory"));
        }
        return dataDirectory;
    }

    /**
     * Reads how the server was started, from {@code postmaster.opts} in its data directory: its program, then each
     * argument in double quotes.
     */
    private static String postmasterOpts(Path data) {
        try {
            return Files.readString(data.resolve("postmaster.opts"), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("Could not read how PostgreSQL was started, in " + data, e);
        }
    }

    /** Returns the arguments in {@code postmaster.opts} but the data directory, which {@code pg_ctl} passes itself. */
    private static List<String> startOptions(String opts) {
        List<String> arguments = new ArrayList<>();
        Matcher matcher = QUOTED.matcher(opts);
        while (matcher.find()) {
            arguments.add(matcher.group(1));
        }
        List<String> options = new ArrayList<>();
        for (int i = 0; i < arguments.size(); i++) {
            if (arguments.get(i).equals("-D")) {
                i++;
            } else {
                // Each option goes through pg_ctl's shell: quoted again.
                options.add("'" + arguments.get(i) + "'");
            }
        }
        return options;
    }

    /**
     * Runs the {@code pg_ctl} beside the server's {@code postgres} program (the first word of {@code postmaster.opts}),
     * in a user namespace of its own where the embedded server runs in one (PostgreSQL refuses to run as root).
     */
    private static void pgCtl(String opts, List<String> arguments) {
        List<String> command = new ArrayList<>();
        if (LinuxUtils.isUnshareAvailable()) {
            command.addAll(List.of("unshare", "-U"));
        }
        command.add(Path.of(opts.split(" ", 2)[0]).resolveSibling("pg_ctl").toString());
        command.addAll(arguments);
        ChildProcess.run("pg_ctl", command, Server.workDirectory(), Map.of(),
                Server.workDirectory().resolve("pg_ctl.log"), Duration.ofSeconds(90));
    }

    @Override
    public void close() {
        server.close();
    }
}
