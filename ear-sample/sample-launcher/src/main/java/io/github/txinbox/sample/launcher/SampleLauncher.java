package io.github.txinbox.sample.launcher;

import io.github.txinbox.InboxSchema;
import io.github.txinbox.InboxTable;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.zip.ZipEntry;
import java.util.zip.ZipInputStream;

/**
 * Runs the sample: PostgreSQL (embedded, or the server named by {@code TXINBOX_SAMPLE_DB_URL}), a Payara Server
 * domain on 127.0.0.1 with its built-in OpenMQ broker, the sample EAR, and a demo batch of orders; then prints what
 * became of them. Without {@code --check} it keeps everything running until Ctrl+C; with it, it checks the outcome,
 * stops everything and exits non-zero on a mismatch.
 */
public final class SampleLauncher {

    /** The ports domain1 listens on, all on 127.0.0.1 once the launcher has configured it. */
    static final Map<Integer, String> PORTS = ports();

    private static final int HTTP_PORT = 8080;
    private static final String BASE_URL = "http://127.0.0.1:" + HTTP_PORT + "/sample/api/orders";

    private final Path target;
    private final boolean check;
    private EmbeddedPostgres postgres;
    private String jdbcUrl;
    private int postgresPort = -1;
    private Asadmin asadmin;
    private boolean domainStarted;

    private SampleLauncher(Path target, boolean check) {
        this.target = target;
        this.check = check;
    }

    private static Map<Integer, String> ports() {
        Map<Integer, String> ports = new LinkedHashMap<>();
        ports.put(4848, "Payara admin");
        ports.put(HTTP_PORT, "Payara HTTP");
        ports.put(8181, "Payara HTTPS");
        ports.put(7676, "OpenMQ broker");
        ports.put(3700, "IIOP");
        ports.put(4900, "Hazelcast");
        return ports;
    }

    public static void main(String[] args) {
        boolean check = java.util.Arrays.asList(args).contains("--check");
        Path target = Path.of(System.getProperty("sample.target", "ear-sample/sample-launcher/target"));
        SampleLauncher launcher = new SampleLauncher(target, check);
        Thread stopper = new Thread(launcher::stop, "sample-stop");
        Runtime.getRuntime().addShutdownHook(stopper);
        int status;
        try {
            status = launcher.run();
        } catch (LauncherException e) {
            System.err.println();
            System.err.println("The sample could not run: " + e.getMessage());
            status = 2;
        }
        if (status != 0 || check) {
            System.exit(status);
        }
    }

    private int run() {
        requireFreePorts();
        jdbcUrl = startDatabase();
        Path payara = unpackPayara();
        asadmin = new Asadmin(payara);
        startDomain(jdbcUrl);
        sql("INSERT INTO inbox (scope, message_id, processed_at) SELECT 'expired-demo', 'old-' || i, "
                + "timestamptz '2001-01-01 00:00:00+00' FROM generate_series(1, " + EXPIRED_MARKERS + ") AS i "
                + "ON CONFLICT DO NOTHING");
        deploy();
        Map<String, Long> before = status();
        Map<String, Object> demo = post(BASE_URL + "/demo?orders=100&duplicates=20&failing=5&poison=1");
        System.out.println("Sent " + demo.get("messagesSent") + " messages: " + demo.get("orders") + " orders, "
                + demo.get("duplicatesSent") + " of them twice, " + demo.get("failingFirstDelivery")
                + " failing on their first delivery, and " + demo.get("poison") + " failing on every delivery.");
        Map<String, Long> after = awaitDrained(before, 100);
        printOutcome(before, after);
        Checks checks = new Checks();
        checks.expect("scheduled purge", awaitPurge(), "the expired markers are still there");
        checks.expect("loopback only", printListeners(payara), "see the sockets above");
        if (check) {
            verify(before, after, checks);
            System.out.println(checks.allPassed()
                    ? "CHECK PASSED: every order invoiced exactly once, retries spaced and bounded, expired markers "
                            + "purged, nothing listening beyond 127.0.0.1."
                    : "CHECK FAILED");
            System.out.println(checks.summary());
            return checks.allPassed() ? 0 : 1;
        }
        System.out.println();
        System.out.println("The sample is running. Look at it:");
        System.out.println("  curl " + BASE_URL + "/status");
        System.out.println("  curl -X POST '" + BASE_URL + "/demo?orders=10&duplicates=3&failing=1'");
        System.out.println("Press Ctrl+C to stop Payara and PostgreSQL.");
        try {
            new CountDownLatch(1).await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return 0;
    }

    /** Expired markers the launcher plants, for the scheduled purge to remove. */
    private static final int EXPIRED_MARKERS = 50;

    private boolean awaitPurge() {
        System.out.print("Waiting for the scheduled purge to delete " + EXPIRED_MARKERS + " expired markers");
        long deadline = System.nanoTime() + Duration.ofSeconds(check ? 90 : 20).toNanos();
        while (System.nanoTime() < deadline) {
            if (count("SELECT count(*) FROM inbox WHERE scope = 'expired-demo'") == 0) {
                done();
                return true;
            }
            System.out.print(".");
            sleep(1_000);
        }
        System.out.println(" not yet (the purge runs every " + purgeInterval() + ")");
        return false;
    }

    private String purgeInterval() {
        return check ? "PT5S" : "PT5M";
    }

    private boolean printListeners(Path payara) {
        long pid;
        try {
            pid = Long.parseLong(Files.readString(payara.resolve("glassfish/domains/domain1/config/pid")).trim());
        } catch (IOException | NumberFormatException e) {
            throw new LauncherException("Cannot read Payara's pid file: " + e.getMessage());
        }
        java.util.function.Predicate<String> ours = LoopbackCheck.ofProcess(pid);
        if (postgresPort > 0) {
            ours = ours.or(LoopbackCheck.onPort(postgresPort));
        }
        java.util.List<String> sockets = LoopbackCheck.listeners(ours);
        java.util.List<String> exposed = sockets.stream().filter(line -> !LoopbackCheck.onLoopback(line)).toList();
        System.out.println("Listening sockets of Payara (pid " + pid + ") and PostgreSQL: " + sockets.size()
                + ", beyond 127.0.0.1: " + exposed.size());
        exposed.forEach(line -> System.out.println("  EXPOSED: " + line));
        return !sockets.isEmpty() && exposed.isEmpty();
    }

    private void sql(String statement) {
        try (Connection connection = connect(); Statement s = connection.createStatement()) {
            s.execute(statement);
        } catch (SQLException e) {
            throw new LauncherException("SQL failed (" + statement + "): " + e.getMessage());
        }
    }

    private long count(String query) {
        try (Connection connection = connect(); Statement s = connection.createStatement();
                java.sql.ResultSet rows = s.executeQuery(query)) {
            rows.next();
            return rows.getLong(1);
        } catch (SQLException e) {
            throw new LauncherException("SQL failed (" + query + "): " + e.getMessage());
        }
    }

    private Connection connect() throws SQLException {
        return DriverManager.getConnection(jdbcUrl, System.getProperty("sample.db.user"),
                System.getProperty("sample.db.password"));
    }

    private static void requireFreePorts() {
        for (Map.Entry<Integer, String> port : PORTS.entrySet()) {
            try (ServerSocket socket = new ServerSocket(port.getKey(), 1, InetAddress.getLoopbackAddress())) {
                socket.setReuseAddress(true);
            } catch (IOException e) {
                throw new LauncherException("port " + port.getKey() + " (" + port.getValue() + ") is already in use. "
                        + "Stop what listens there (see: ss -ltnp 'sport = :" + port.getKey() + "'), or a sample "
                        + "still running, and try again.");
            }
        }
    }

    private String startDatabase() {
        String url = System.getenv("TXINBOX_SAMPLE_DB_URL");
        String user = System.getenv().getOrDefault("TXINBOX_SAMPLE_DB_USER", "postgres");
        String password = System.getenv().getOrDefault("TXINBOX_SAMPLE_DB_PASSWORD", "postgres");
        if (url == null || url.isBlank()) {
            progress("Starting PostgreSQL (embedded, 127.0.0.1)");
            try {
                Path data = target.resolve("postgres");
                Files.createDirectories(data);
                postgres = EmbeddedPostgres.builder()
                        .setOverrideWorkingDirectory(data.toFile())
                        .setServerConfig("listen_addresses", "127.0.0.1")
                        .setServerConfig("max_prepared_transactions", "64")
                        .start();
            } catch (IOException e) {
                throw new LauncherException("PostgreSQL did not start: " + e.getMessage());
            }
            postgresPort = postgres.getPort();
            url = "jdbc:postgresql://127.0.0.1:" + postgresPort + "/postgres";
            done();
        } else {
            System.out.println("Using the PostgreSQL server named by TXINBOX_SAMPLE_DB_URL: " + url);
        }
        System.setProperty("sample.db.user", user);
        System.setProperty("sample.db.password", password);
        try (Connection connection = DriverManager.getConnection(url, user, password);
                Statement statement = connection.createStatement()) {
            statement.execute(InboxSchema.createTableSql(InboxTable.DEFAULT));
            statement.execute("CREATE TABLE IF NOT EXISTS sample_invoice (id text PRIMARY KEY, "
                    + "order_id text NOT NULL, amount numeric(12, 2) NOT NULL, created_at timestamptz NOT NULL)");
            statement.execute("CREATE INDEX IF NOT EXISTS sample_invoice_order_idx ON sample_invoice (order_id)");
        } catch (SQLException e) {
            throw new LauncherException("Could not create the sample's tables in " + url + ": " + e.getMessage());
        }
        return url;
    }

    private Path unpackPayara() {
        Path home = target.resolve("payara6");
        if (Files.isDirectory(home.resolve("glassfish"))) {
            return home;
        }
        Path zip = target.resolve("payara-server.zip");
        if (!Files.isRegularFile(zip)) {
            throw new LauncherException(zip + " is missing: build the sample first (ear-sample/run.sh does)");
        }
        progress("Unpacking Payara Server");
        try (ZipInputStream in = new ZipInputStream(Files.newInputStream(zip))) {
            for (ZipEntry entry = in.getNextEntry(); entry != null; entry = in.getNextEntry()) {
                Path file = target.resolve(entry.getName()).normalize();
                if (!file.startsWith(target)) {
                    throw new LauncherException("Unexpected entry in " + zip + ": " + entry.getName());
                }
                if (entry.isDirectory()) {
                    Files.createDirectories(file);
                } else {
                    Files.createDirectories(file.getParent());
                    Files.copy(in, file, StandardCopyOption.REPLACE_EXISTING);
                }
            }
        } catch (IOException e) {
            throw new LauncherException("Could not unpack " + zip + ": " + e.getMessage());
        }
        for (Path script : new Path[] {home.resolve("bin/asadmin"), home.resolve("glassfish/bin/asadmin"),
                home.resolve("glassfish/imq/bin/imqbrokerd"), home.resolve("glassfish/imq/bin/imqcmd")}) {
            script.toFile().setExecutable(true);
        }
        done();
        return home;
    }

    private void startDomain(String jdbcUrl) {
        progress("Starting Payara Server");
        DomainSetup.beforeStart(target.resolve("payara6"));
        asadmin.run("start-domain", "domain1");
        domainStarted = true;
        done();
        if (asadmin.run("list-applications").contains("txinbox-sample")) {
            // Left from an earlier run, with that run's database settings.
            asadmin.run("undeploy", "txinbox-sample");
        }
        progress("Configuring the domain (loopback only, datasource settings, queue)");
        DomainSetup.configure(asadmin, jdbcUrl, purgeInterval());
        asadmin.run("restart-domain", "domain1");
        done();
    }

    private void deploy() {
        progress("Deploying txinbox-sample.ear");
        asadmin.run("deploy", "--name", "txinbox-sample", target.resolve("txinbox-sample.ear").toString());
        done();
    }

    private Map<String, Long> awaitDrained(Map<String, Long> before, long orders) {
        System.out.print("Waiting for the queue to drain");
        long deadline = System.nanoTime() + Duration.ofMinutes(3).toNanos();
        Map<String, Long> status = status();
        int quiet = 0;
        long lastDeliveries = -1;
        while (System.nanoTime() < deadline) {
            sleep(500);
            status = status();
            boolean drained = status.get("queued") == 0
                    && status.get("invoicedOrders") - before.get("invoicedOrders") >= orders
                    && status.get("deadLettered") - before.get("deadLettered") >= 1;
            quiet = drained && status.get("deliveries") == lastDeliveries ? quiet + 1 : 0;
            lastDeliveries = status.get("deliveries");
            System.out.print(".");
            if (quiet >= 4) {
                done();
                return status;
            }
        }
        System.out.println(" timed out");
        return status;
    }

    private static void printOutcome(Map<String, Long> before, Map<String, Long> after) {
        System.out.println();
        System.out.println("  outcome                          count");
        System.out.println("  -------------------------------  -----");
        row("messages sent", before, after, "sent");
        row("deliveries (onMessage calls)", before, after, "deliveries");
        row("  of them redeliveries", before, after, "redeliveries");
        row("handler runs", before, after, "handled");
        row("  of them failed (rolled back)", before, after, "failures");
        row("duplicates skipped by the inbox", before, after, "duplicatesSkipped");
        row("invoices", before, after, "invoices");
        row("orders invoiced", before, after, "invoicedOrders");
        row("orders invoiced twice", before, after, "ordersInvoicedTwice");
        row("inbox markers", before, after, "markers");
        row("dead-lettered (mq.sys.dmq)", before, after, "deadLettered");
        row("still queued", before, after, "queued");
        System.out.printf("  %-31s  %5d%n", "shortest wait before a retry, ms", after.get("shortestRetryGapMillis"));
    }

    private static void row(String label, Map<String, Long> before, Map<String, Long> after, String key) {
        long value = key.equals("queued") ? after.get(key) : after.get(key) - before.get(key);
        System.out.printf("  %-31s  %5d%n", label, value);
    }

    private static void verify(Map<String, Long> before, Map<String, Long> after, Checks checks) {
        Map<String, Long> expected = new LinkedHashMap<>();
        // 100 orders + 20 duplicates + 1 poison order; 5 orders retried once, the poison one 1 + 3 times.
        expected.put("sent", 121L);
        expected.put("invoices", 100L);
        expected.put("invoicedOrders", 100L);
        expected.put("ordersInvoicedTwice", 0L);
        expected.put("markers", 100L);
        expected.put("failures", 9L);
        expected.put("redeliveries", 8L);
        expected.put("deadLettered", 1L);
        for (Map.Entry<String, Long> entry : expected.entrySet()) {
            checks.expectEqual(entry.getKey(), entry.getValue(),
                    after.get(entry.getKey()) - before.get(entry.getKey()));
        }
        long duplicates = after.get("duplicatesSkipped") - before.get("duplicatesSkipped");
        checks.expect("duplicatesSkipped", duplicates >= 20, "is " + duplicates + ", expected at least 20");
        long gap = after.get("shortestRetryGapMillis");
        checks.expect("retry spacing", gap >= 900, "a retry came " + gap + " ms after the attempt before it; "
                + "expected about 1000 (endpointExceptionRedeliveryInterval)");
        checks.expectEqual("queued", 0, after.get("queued"));
    }

    private Map<String, Long> status() {
        Map<String, Object> raw = get(BASE_URL + "/status");
        Map<String, Long> status = new LinkedHashMap<>();
        raw.forEach((key, value) -> status.put(key, ((Number) value).longValue()));
        return status;
    }

    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    private static Map<String, Object> get(String url) {
        return send(HttpRequest.newBuilder(URI.create(url)).GET().timeout(Duration.ofSeconds(30)).build());
    }

    private static Map<String, Object> post(String url) {
        return send(HttpRequest.newBuilder(URI.create(url)).POST(HttpRequest.BodyPublishers.noBody())
                .timeout(Duration.ofSeconds(60)).build());
    }

    private static Map<String, Object> send(HttpRequest request) {
        try {
            HttpResponse<String> response = HTTP.send(request, HttpResponse.BodyHandlers.ofString());
            if (response.statusCode() != 200) {
                throw new LauncherException(request.uri() + " answered " + response.statusCode() + ": "
                        + response.body());
            }
            return Json.flatObject(response.body());
        } catch (IOException e) {
            throw new LauncherException(request.uri() + " failed: " + e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new LauncherException("Interrupted");
        }
    }

    private synchronized void stop() {
        if (domainStarted) {
            domainStarted = false;
            System.out.println("Stopping Payara Server...");
            try {
                asadmin.run("stop-domain", "domain1");
            } catch (LauncherException e) {
                System.err.println(e.getMessage());
            }
        }
        if (postgres != null) {
            System.out.println("Stopping PostgreSQL...");
            try {
                postgres.close();
            } catch (IOException e) {
                System.err.println("Could not stop PostgreSQL: " + e.getMessage());
            }
            postgres = null;
        }
    }

    private static void progress(String step) {
        System.out.print(step + "...");
        System.out.flush();
    }

    private static void done() {
        System.out.println(" done");
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new LauncherException("Interrupted");
        }
    }

    /** The launcher reads only flat JSON objects of strings and numbers: a small reader is enough. */
    static final class Json {

        private static final Pattern MEMBER = Pattern.compile(
                "\"([^\"]+)\"\\s*:\\s*(\"((?:[^\"\\\\]|\\\\.)*)\"|-?\\d+(?:\\.\\d+)?)");

        private Json() {
        }

        static Map<String, Object> flatObject(String json) {
            Map<String, Object> members = new LinkedHashMap<>();
            Matcher matcher = MEMBER.matcher(json);
            while (matcher.find()) {
                members.put(matcher.group(1), matcher.group(3) != null ? matcher.group(3)
                        : (Object) Long.valueOf(matcher.group(2)));
            }
            return members;
        }
    }

}
