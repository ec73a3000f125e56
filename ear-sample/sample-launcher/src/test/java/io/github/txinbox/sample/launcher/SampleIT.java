package io.github.txinbox.sample.launcher;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.txinbox.InboxSchema;
import io.github.txinbox.InboxTable;
import io.github.txinbox.dev.ChildProcess;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * Runs the sample as a person does ({@code ear-sample/run.sh} after its build: the launcher with the same class
 * path and no arguments), reads what it prints, checks the outcome table against the demo batch and against the
 * database, checks that nothing listens beyond 127.0.0.1, and stops it as Ctrl+C does.
 */
class SampleIT {

    private static final Path TARGET = Path.of(System.getProperty("sample.target", "target")).toAbsolutePath();
    private static final Pattern ROW = Pattern.compile("^\\s+(\\S.*?)\\s{2,}(-?\\d+|\\?)$");
    private static final Pattern BATCH = Pattern.compile("\\(batch ([0-9a-f]{8})\\)");
    private static final String MARKERS = "SELECT count(*) FROM inbox WHERE scope = 'order-placed'";
    /** The build's TXINBOX_SAMPLE_PORT_OFFSET, which every run keeps: it moves Payara's ports off others' servers. */
    private static final int PORT_OFFSET =
            Integer.parseInt(System.getenv().getOrDefault("TXINBOX_SAMPLE_PORT_OFFSET", "0").strip());
    private static final Pattern DB_LINE =
            Pattern.compile("^  (jdbc:postgresql://\\S+), max_prepared_transactions = (\\d+)");

    /** The README's path: the embedded PostgreSQL with its stock settings, the default non-XA datasource. */
    @Test
    void embeddedStockPostgresWithoutXa() throws Exception {
        try (Run run = Run.start(Map.of())) {
            run.awaitRunning();

            Matcher db = run.find(DB_LINE);
            int postgresPort = Integer.parseInt(db.group(1).replaceAll(".*:(\\d+)/.*", "$1"));
            assertEquals("0", db.group(2), "the embedded PostgreSQL keeps the stock max_prepared_transactions");
            assertTrue(run.output().contains("non-XA datasource"), run.output());
            assertBatchOutcome(run, "OrderPlacedListener", db.group(1), "postgres", "postgres");
            assertASecondBatchCountsItsOwnDeadLetters();
            assertLoopbackOnly(postgresPort);
            assertReadinessLooksAtTheTable(db.group(1), "postgres", "postgres");

            run.stop();
            assertStoppedInOrder(run);
            assertFalse(reachable(postgresPort), "the embedded PostgreSQL is stopped");
        }
    }

    /**
     * The inbox's readiness check in the EAR, with the library in lib/: it looks at the database although Payara calls
     * it outside the EAR's modules, with the settings of a jar in lib/. Ready while the table is there, not ready while
     * it is renamed away, ready again once it is back.
     */
    private static void assertReadinessLooksAtTheTable(String url, String user, String password) throws Exception {
        HttpResponse<String> ready = ready();
        assertEquals(200, ready.statusCode(), ready.body());
        assertTrue(ready.body().matches("(?s).*\"name\"\\s*:\\s*\"txinbox\".*"), ready.body());
        assertTrue(ready.body().matches("(?s).*\"checked\"\\s*:\\s*\"?true\"?.*"), ready.body());
        // The setting of sample-model's microprofile-config.properties, a jar in the EAR's lib/.
        assertTrue(ready.body().matches("(?s).*\"preparedTransactionAge\"\\s*:\\s*\"PT1M\".*"), ready.body());
        execute(url, user, password, "ALTER TABLE inbox RENAME TO inbox_renamed_away");
        try {
            HttpResponse<String> down = ready();
            assertEquals(503, down.statusCode(), down.body());
            assertTrue(down.body().matches("(?s).*\"status\"\\s*:\\s*\"DOWN\".*"), down.body());
            assertTrue(down.body().matches("(?s).*\"checked\"\\s*:\\s*\"?true\"?.*"), down.body());
            assertTrue(down.body().contains("The inbox table \\\"inbox\\\" will not do: it does not exist"),
                    down.body());
        } finally {
            execute(url, user, password, "ALTER TABLE inbox_renamed_away RENAME TO inbox");
        }
        HttpResponse<String> back = ready();
        assertEquals(200, back.statusCode(), back.body());
        assertTrue(back.body().matches("(?s).*\"checked\"\\s*:\\s*\"?true\"?.*"), back.body());
    }

    private static HttpResponse<String> ready() throws Exception {
        return HttpClient.newHttpClient().send(
                HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + (8080 + PORT_OFFSET) + "/health/ready")).build(),
                HttpResponse.BodyHandlers.ofString());
    }

    /**
     * A PostgreSQL named by the user, with XA, holding an earlier batch's markers: the table counts this run's batch
     * only, and the database is left running.
     */
    @Test
    void namedPostgresWithXaCountsOnlyItsOwnBatch() throws Exception {
        try (EmbeddedPostgres postgres = EmbeddedPostgres.builder()
                .setServerConfig("listen_addresses", "127.0.0.1")
                // XA: one prepared transaction per concurrent MDB transaction (Payara's MDB pool: up to 32).
                .setServerConfig("max_prepared_transactions", "64").start()) {
            String url = "jdbc:postgresql://127.0.0.1:" + postgres.getPort() + "/postgres";
            try (Connection connection = DriverManager.getConnection(url, "postgres", "postgres");
                    Statement statement = connection.createStatement()) {
                statement.execute(InboxSchema.createTableSql(InboxTable.DEFAULT));
                statement.execute("INSERT INTO inbox (scope, message_id) SELECT 'order-placed', 'order-0000beef-' || i "
                        + "FROM generate_series(1, 30) AS i");
            }
            try (Run run = Run.start(Map.of("TXINBOX_SAMPLE_DB_URL", url, "TXINBOX_SAMPLE_DB_USER", "postgres",
                    "TXINBOX_SAMPLE_DB_PASSWORD", "postgres", "TXINBOX_SAMPLE_XA", "true"))) {
                run.awaitRunning();

                assertEquals(url, run.find(DB_LINE).group(1));
                assertTrue(run.output().contains("XA datasource (PGXADataSource)"), run.output());
                assertBatchOutcome(run, "XaOrderPlacedListener", url, "postgres", "postgres");
                assertEquals(130, count(url, "postgres", "postgres", MARKERS),
                        "the earlier batch's 30 markers and this batch's 100");

                run.stop();
                assertStoppedInOrder(run);
                assertFalse(run.output().contains("Stopping PostgreSQL"), "a named PostgreSQL is left alone");
                assertEquals(130, count(url, "postgres", "postgres", MARKERS));
            }
        }
    }

    /**
     * The start-up check runs in the sample's EAR, with the library in {@code lib/}: an inbox table that does not exist
     * (named through MicroProfile Config's environment variable for {@code txinbox.table}) fails the deployment with
     * the DDL to run, and the launcher stops what it started.
     */
    @Test
    void aMissingInboxTableFailsTheDeploymentWithTheDdlToRun() throws Exception {
        try (Run run = Run.start(Map.of("TXINBOX_TABLE", "txinbox_missing"))) {
            assertEquals(2, run.awaitExit());
            String output = run.output();
            assertTrue(output.contains("The sample could not run: asadmin deploy failed"), output);
            assertTrue(output.contains("The inbox table \"txinbox_missing\" will not do: it does not exist. "
                    + "Create it with:\nCREATE TABLE IF NOT EXISTS \"txinbox_missing\" ("), output);
            assertTrue(output.contains("Stopping PostgreSQL... done"), output);
        }
    }

    /** XA against a stock PostgreSQL cannot work: the launcher says so before it starts the server. */
    @Test
    void xaAgainstStockPostgresIsRefusedWithTheReason() throws Exception {
        try (EmbeddedPostgres postgres = EmbeddedPostgres.builder()
                .setServerConfig("listen_addresses", "127.0.0.1").start()) {
            try (Run run = Run.start(Map.of("TXINBOX_SAMPLE_DB_URL",
                    "jdbc:postgresql://127.0.0.1:" + postgres.getPort() + "/postgres", "TXINBOX_SAMPLE_XA", "true"))) {
                assertEquals(2, run.awaitExit());
                assertTrue(run.output().contains("The sample could not run: XA needs max_prepared_transactions > 0"),
                        run.output());
                assertFalse(run.output().contains("Creating a new Payara Server domain"), run.output());
                assertFalse(run.output().contains("\tat "), "no stack trace: " + run.output());
            }
        }
    }

    /**
     * The table the launcher printed matches the demo batch: 100 orders, 20 sent twice, 5 retried, 1 poison, every
     * delivery to the given listener.
     */
    private static void assertBatchOutcome(Run run, String listener, String url, String user, String password)
            throws SQLException {
        assertTrue(run.output().contains("\n  delivered to: " + listener + "\n"), run.output());
        Map<String, String> table = run.table();
        Map<String, String> expected = new LinkedHashMap<>();
        expected.put("messages sent", "121");
        expected.put("deliveries (onMessage calls)", "129");
        expected.put("of them redeliveries", "8");
        expected.put("handler runs", "109");
        expected.put("of them failed (rolled back)", "9");
        expected.put("duplicates skipped by the inbox", "20");
        expected.put("invoices", "100");
        expected.put("orders invoiced", "100");
        expected.put("orders invoiced twice", "0");
        expected.put("inbox markers", "100");
        expected.put("dead-lettered (mq.sys.dmq)", "1");
        expected.put("still queued (every batch)", "0");
        expected.forEach((row, value) -> assertEquals(value, table.get(row), row + " in:\n" + run.output()));
        long gap = Long.parseLong(table.get("shortest wait before a retry, ms"));
        assertTrue(gap >= 900, "retries about 1000 ms apart (endpointExceptionRedeliveryInterval), not " + gap);
        assertTrue(run.output().contains("dead-lettered; expired markers: none left"),
                "the scheduled purge deleted the planted markers");
        assertFalse(run.output().contains("not settled"), run.output());

        String batch = run.find(BATCH).group(1);
        String orders = "'order-" + batch + "-%'";
        assertEquals(100, count(url, user, password,
                "SELECT count(DISTINCT order_id) FROM sample_invoice WHERE order_id LIKE " + orders));
        assertEquals(100, count(url, user, password,
                "SELECT count(*) FROM sample_invoice WHERE order_id LIKE " + orders));
        assertEquals(100, count(url, user, password,
                "SELECT count(*) FROM inbox WHERE scope = 'order-placed' AND message_id LIKE " + orders));
        assertEquals(0, count(url, user, password, "SELECT count(*) FROM pg_prepared_xacts"),
                "no transaction left prepared");
    }

    /**
     * A second batch, sent as the sample's README shows while the first batch's poison order is still in the
     * dead-message queue: its report counts its own poison order only.
     */
    private static void assertASecondBatchCountsItsOwnDeadLetters() throws Exception {
        HttpResponse<String> sent = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                api("demo?orders=10&duplicates=3&failing=1&poison=1")).POST(HttpRequest.BodyPublishers.noBody())
                .build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(200, sent.statusCode(), sent.body());
        Matcher id = Pattern.compile("\"batch\"\\s*:\\s*\"([0-9a-f]{8})\"").matcher(sent.body());
        assertTrue(id.find(), sent.body());
        String batch = id.group(1);
        long deadline = System.nanoTime() + Duration.ofMinutes(1).toNanos();
        String status;
        do {
            Thread.sleep(1_000);
            status = get(api("status?batch=" + batch));
        } while (!status.matches("(?s).*\"settled\"\\s*:\\s*true.*") && System.nanoTime() < deadline);
        String report = get(api("report?batch=" + batch));
        assertTrue(report.matches("(?s).*\n  dead-lettered \\(mq\\.sys\\.dmq\\) +1\n.*"), report);
        assertTrue(report.matches("(?s).*\n  orders invoiced +10\n.*"), report);
        assertTrue(report.matches("(?s).*\n  messages sent +14\n.*"), report);
    }

    private static URI api(String path) {
        return URI.create("http://127.0.0.1:" + (8080 + PORT_OFFSET) + "/sample/api/orders/" + path);
    }

    private static String get(URI uri) throws Exception {
        HttpResponse<String> response = HttpClient.newHttpClient().send(HttpRequest.newBuilder(uri).build(),
                HttpResponse.BodyHandlers.ofString());
        assertEquals(200, response.statusCode(), uri + ": " + response.body());
        return response.body();
    }

    private static void assertLoopbackOnly(int postgresPort) throws Exception {
        long payara = Long.parseLong(Files.readString(TARGET.resolve("sample-run/domains/sample/config/pid")).trim());
        ChildProcess ss = ChildProcess.start("ss", List.of("ss", "-ltnpH"), TARGET, Map.of(),
                TARGET.resolve("sample-it").resolve("ss-" + System.nanoTime() + ".log"));
        assertEquals(0, ss.awaitExit(Duration.ofSeconds(30)), ss.output());
        String sockets = ss.output();
        List<String> ours = sockets.lines().filter(line -> line.contains("pid=" + payara + ",")
                || localAddress(line).endsWith(":" + postgresPort)).toList();
        assertTrue(ours.size() >= 5, "Payara's and PostgreSQL's sockets found:\n" + sockets);
        for (String socket : ours) {
            String local = localAddress(socket);
            assertTrue(local.startsWith("127.") || local.startsWith("[::ffff:127.") || local.startsWith("[::1]"),
                    "listens beyond 127.0.0.1: " + socket);
        }
    }

    private static String localAddress(String ssLine) {
        String[] columns = ssLine.trim().split("\\s+");
        return columns.length > 3 ? columns[3] : "";
    }

    private static void assertStoppedInOrder(Run run) throws Exception {
        run.awaitExit();
        String output = run.output();
        assertTrue(Pattern.compile("^Stopping Payara Server\\.+ done$", Pattern.MULTILINE).matcher(output).find(),
                "the launcher stopped Payara Server and waited for it:\n" + output);
        int payara = output.indexOf("Stopping Payara Server...");
        int postgres = output.indexOf("Stopping PostgreSQL...");
        assertTrue(postgres < 0 || postgres > payara, "Payara stops before PostgreSQL:\n" + output);
        assertFalse(output.contains("\tat "), "no stack trace:\n" + output);
        for (int port : new int[] {8048, 8080, 8076}) {
            assertFalse(reachable(port + PORT_OFFSET), "port " + (port + PORT_OFFSET) + " still open after the sample "
                    + "stopped");
        }
        String log = Files.readString(TARGET.resolve("sample-run/domains/sample/logs/server.log"));
        assertFalse(log.contains("Connection refused"), "the server lost its database before it stopped");
        assertFalse(log.contains("Could not check the inbox table at start-up"), "the start-up check did not run");
    }

    private static boolean reachable(int port) {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress("127.0.0.1", port), 1_000);
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    private static long count(String url, String user, String password, String query) throws SQLException {
        try (Connection connection = DriverManager.getConnection(url, user, password);
                Statement statement = connection.createStatement(); ResultSet rows = statement.executeQuery(query)) {
            rows.next();
            return rows.getLong(1);
        }
    }

    private static void execute(String url, String user, String password, String sql) throws SQLException {
        try (Connection connection = DriverManager.getConnection(url, user, password);
                Statement statement = connection.createStatement()) {
            statement.execute(sql);
        }
    }

    /**
     * One run of the launcher in a JVM of its own, as ear-sample/run.sh starts it; its output goes to
     * {@code target/sample-it/run-N.log}.
     */
    private static final class Run implements AutoCloseable {

        private static int runs;

        private final ChildProcess process;

        private Run(ChildProcess process) {
            this.process = process;
        }

        static Run start(Map<String, String> environment) throws IOException {
            String classpath = TARGET.resolve("classes") + java.io.File.pathSeparator
                    + Files.readString(TARGET.resolve("classpath.txt")).trim();
            Files.createDirectories(TARGET.resolve("tmp"));
            // From the repository's root, with the paths relative to it, as run.sh passes them.
            Path root = TARGET.getParent().getParent().getParent();
            Path target = root.relativize(TARGET);
            Path log = TARGET.resolve("sample-it").resolve("run-" + (++runs) + ".log");
            Files.deleteIfExists(log);
            List<String> command = List.of(ProcessHandle.current().info().command().orElse("java"),
                    "-Djava.io.tmpdir=" + target.resolve("tmp"), "-cp", classpath, "-Dsample.target=" + target,
                    SampleLauncher.class.getName());
            return new Run(ChildProcess.start("the sample's launcher", command, root, environment,
                    name -> name.startsWith("TXINBOX_SAMPLE_") && !name.equals("TXINBOX_SAMPLE_PORT_OFFSET"), log));
        }

        /** Waits until the sample says it is running. */
        void awaitRunning() {
            assertTrue(process.awaitOutput(output -> output.lines().anyMatch(line -> line.startsWith("Press Ctrl+C")),
                    output -> false, Duration.ofMinutes(8)), "the sample ended:\n" + output());
        }

        /**
         * Stops the launcher as Ctrl+C does: the signal runs its shutdown hook. SIGTERM runs the same hook as Ctrl+C's
         * SIGINT, and unlike SIGINT it is not ignored when the build itself runs in the background. (The server runs
         * in a session of its own, out of a terminal's reach, so Ctrl+C reaches the launcher only, as here.)
         */
        void stop() {
            process.terminate();
        }

        int awaitExit() {
            try {
                return process.awaitExit(Duration.ofMinutes(3));
            } catch (IllegalStateException e) {
                process.kill();
                throw new AssertionError("the sample did not stop within 3 minutes:\n" + output(), e);
            }
        }

        /**
         * Stops a run that a failed assertion left running, and the server it started, so that the next test (and
         * the next build) finds the ports free.
         */
        @Override
        public void close() throws IOException {
            process.close();
            Path pid = TARGET.resolve("sample-run/domains/sample/config/pid");
            if (Files.exists(pid)) {
                ProcessHandle.of(Long.parseLong(Files.readString(pid).trim()))
                        .filter(server -> server.info().commandLine().orElse("").contains(TARGET.toString()))
                        .ifPresent(server -> {
                            server.destroy();
                            try {
                                server.onExit().get(2, TimeUnit.MINUTES);
                            } catch (Exception e) {
                                server.destroyForcibly();
                            }
                        });
            }
        }

        String output() {
            return process.output();
        }

        Matcher find(Pattern pattern) {
            for (String line : output().lines().toList()) {
                Matcher matcher = pattern.matcher(line);
                if (matcher.find()) {
                    return matcher;
                }
            }
            throw new AssertionError(pattern + " not in:\n" + output());
        }

        /** The outcome table's rows, by label. */
        Map<String, String> table() {
            Map<String, String> rows = new LinkedHashMap<>();
            for (String line : output().lines().toList()) {
                Matcher row = ROW.matcher(line);
                if (row.matches()) {
                    rows.put(row.group(1).strip(), row.group(2));
                }
            }
            return rows;
        }
    }
}
