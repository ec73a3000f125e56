package io.github.txinbox.sample.launcher;

import jakarta.json.JsonObject;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;

/**
 * Runs the sample: PostgreSQL, a new Payara Server domain on 127.0.0.1 with its built-in OpenMQ broker, the sample
 * EAR, and one demo batch of orders; prints what became of the batch, and keeps everything running until Ctrl+C,
 * which stops Payara and then PostgreSQL.
 *
 * <p>Settings, from the environment: {@code TXINBOX_SAMPLE_DB_URL}, {@code TXINBOX_SAMPLE_DB_USER},
 * {@code TXINBOX_SAMPLE_DB_PASSWORD} (an existing PostgreSQL instead of the embedded one) and
 * {@code TXINBOX_SAMPLE_XA} ({@code true}: an XA datasource and the listener in the container's transaction) and
 * {@code TXINBOX_SAMPLE_PORT_OFFSET} (added to each of Payara's ports).
 */
public final class SampleLauncher {

    private static final int ORDERS = 100;
    private static final int DUPLICATES = 20;
    private static final int FAILING = 5;
    private static final int POISON = 1;
    /** Expired markers planted before deployment, for the first scheduled purge to delete. */
    private static final int EXPIRED_MARKERS = 50;
    /** The ports the domain listens on, all on 127.0.0.1, before the offset. */
    private static final Map<Integer, String> PORTS = Map.of(4848, "Payara admin", 8080, "Payara HTTP",
            8181, "Payara HTTPS", 7676, "OpenMQ broker", 3700, "IIOP");

    private final Path target;
    private final boolean xa;
    private final int portOffset;
    private final PayaraDomain domain;
    private final SampleApi api;
    private Database database;
    private volatile boolean stopping;

    private SampleLauncher(Path target, boolean xa, int portOffset) {
        this.target = target;
        this.xa = xa;
        this.portOffset = portOffset;
        this.domain = new PayaraDomain(target.resolve("payara6"), target.resolve("sample-run"), portOffset);
        this.api = new SampleApi(8080 + portOffset, domain.serverLog());
    }

    public static void main(String[] args) {
        if (args.length > 0) {
            System.err.println("ear-sample/run.sh takes no arguments; its settings are environment variables "
                    + "(TXINBOX_SAMPLE_DB_URL, TXINBOX_SAMPLE_DB_USER, TXINBOX_SAMPLE_DB_PASSWORD, TXINBOX_SAMPLE_XA, "
                    + "TXINBOX_SAMPLE_PORT_OFFSET): "
                    + "see ear-sample/README.md.");
            System.exit(2);
        }
        SampleLauncher launcher;
        try {
            launcher = new SampleLauncher(
                    Path.of(System.getProperty("sample.target", "ear-sample/sample-launcher/target")),
                    xaSetting(System.getenv("TXINBOX_SAMPLE_XA")),
                    portOffsetSetting(System.getenv("TXINBOX_SAMPLE_PORT_OFFSET")));
        } catch (LauncherException e) {
            System.err.println(e.getMessage());
            System.exit(2);
            return;
        }
        Runtime.getRuntime().addShutdownHook(new Thread(launcher::stop, "sample-stop"));
        try {
            launcher.run();
        } catch (LauncherException e) {
            if (!launcher.stopping) {
                System.out.println();
                System.err.println("The sample could not run: " + e.getMessage());
                System.exit(2);
            }
        }
    }

    private static boolean xaSetting(String value) {
        if (value == null || value.isBlank() || value.equals("false")) {
            return false;
        }
        if (value.equals("true")) {
            return true;
        }
        throw new LauncherException("TXINBOX_SAMPLE_XA must be true or false, not \"" + value + "\"");
    }

    private static int portOffsetSetting(String value) {
        if (value == null || value.isBlank()) {
            return 0;
        }
        try {
            int offset = Integer.parseInt(value.strip());
            if (offset >= 0 && offset <= 50_000) {
                return offset;
            }
        } catch (NumberFormatException e) {
            // said below
        }
        throw new LauncherException("TXINBOX_SAMPLE_PORT_OFFSET must be a number from 0 to 50000, not \"" + value
                + "\"");
    }

    private void run() {
        requireFreePorts();
        step(Database.named() ? "Connecting to PostgreSQL" : "Starting PostgreSQL (embedded, on 127.0.0.1)", () -> {
            database = Database.open(target, xa);
            database.prepare(xa, EXPIRED_MARKERS);
        });
        System.out.println("  " + database.url() + ", max_prepared_transactions = "
                + database.maxPreparedTransactions() + "; the sample's "
                + (xa ? "XA datasource (PGXADataSource)" : "non-XA datasource (PGSimpleDataSource)"));
        step("Creating a new Payara Server domain", domain::create);
        step("Starting it on 127.0.0.1", () -> domain.start(Map.of(
                "SAMPLE_DB_URL", database.url(),
                "SAMPLE_DB_USER", database.user(),
                "SAMPLE_DB_PASSWORD", database.password(),
                "SAMPLE_DB_DATASOURCE_CLASS", xa ? "org.postgresql.xa.PGXADataSource"
                        : "org.postgresql.ds.PGSimpleDataSource",
                "SAMPLE_XA", Boolean.toString(xa))));
        step("Deploying txinbox-sample.ear", () -> domain.deploy(target.resolve("txinbox-sample.ear"),
                "txinbox-sample"));

        goOn();
        JsonObject sent = api.demo(ORDERS, DUPLICATES, FAILING, POISON);
        String batch = sent.getString("batch");
        System.out.println("Sent " + sent.getInt("messagesSent") + " messages (batch " + batch + "): " + ORDERS
                + " orders, " + DUPLICATES + " of them twice, " + FAILING + " failing on their first delivery, and "
                + POISON + " failing on every delivery.");
        System.out.println(xa ? "  To XaOrderPlacedListener: onMessage runs in the container's XA transaction, and the "
                + "broker's acknowledgement commits with the invoice."
                : "  To OrderPlacedListener: onMessage runs without a transaction, OrderPlacedHandler's own "
                + "transaction commits the invoice, and the broker acknowledges when onMessage returns.");
        JsonObject status = awaitSettled(batch);
        printOutcome(status);
        awaitPurge();

        System.out.println();
        System.out.println("The sample is running. Look at it:");
        System.out.println("  curl '" + api.statusUrl(batch) + "'");
        System.out.println("  curl -X POST '" + api.baseUrl() + "/demo?orders=10&duplicates=3&failing=1'"
                + "   (then ask status about the batch it returns)");
        System.out.println("  the server's log: " + domain.serverLog());
        System.out.println(database.embedded() ? "Press Ctrl+C to stop Payara Server, then PostgreSQL."
                : "Press Ctrl+C to stop Payara Server (your PostgreSQL keeps running).");
        try {
            new CountDownLatch(1).await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Waits until every order is invoiced, the poison order dead-lettered and deliveries have stopped. */
    private JsonObject awaitSettled(String batch) {
        System.out.println("Waiting for the batch to settle:");
        long deadline = System.nanoTime() + Duration.ofMinutes(3).toNanos();
        long lastDeliveries = -1;
        int quiet = 0;
        int polls = 0;
        JsonObject status = api.status(batch);
        while (System.nanoTime() < deadline) {
            sleep(500);
            status = api.status(batch);
            long deliveries = SampleApi.count(status, "deliveries");
            long queued = SampleApi.count(status, "queued");
            long deadLettered = SampleApi.count(status, "deadLettered");
            boolean settled = SampleApi.count(status, "invoicedOrders") >= ORDERS && queued <= 0
                    && (deadLettered < 0 || deadLettered >= POISON);
            quiet = settled && deliveries == lastDeliveries ? quiet + 1 : 0;
            lastDeliveries = deliveries;
            if (quiet >= 4) {
                System.out.println("  settled: " + describe(status));
                return status;
            }
            if (++polls % 4 == 0) {
                System.out.println("  " + describe(status));
            }
        }
        System.out.println("  not settled within 3 minutes; the table shows where it stands, the server's log ("
                + domain.serverLog() + ") may say why.");
        return status;
    }

    private static String describe(JsonObject status) {
        return SampleApi.count(status, "invoicedOrders") + " of " + ORDERS + " orders invoiced, "
                + SampleApi.count(status, "deliveries") + " deliveries, " + known(status, "queued") + " queued, "
                + known(status, "deadLettered") + " dead-lettered";
    }

    private static String known(JsonObject status, String name) {
        long value = SampleApi.count(status, name);
        return value < 0 ? "?" : Long.toString(value);
    }

    private static void printOutcome(JsonObject status) {
        System.out.println();
        System.out.println("  delivered to: " + status.getString("listeners", "?"));
        System.out.println("  outcome of the batch               count");
        System.out.println("  ---------------------------------  -----");
        List<String[]> rows = List.of(
                new String[] {"messages sent", "sent"},
                new String[] {"deliveries (onMessage calls)", "deliveries"},
                new String[] {"  of them redeliveries", "redeliveries"},
                new String[] {"handler runs", "handled"},
                new String[] {"  of them failed (rolled back)", "failures"},
                new String[] {"duplicates skipped by the inbox", "duplicatesSkipped"},
                new String[] {"invoices", "invoices"},
                new String[] {"orders invoiced", "invoicedOrders"},
                new String[] {"orders invoiced twice", "ordersInvoicedTwice"},
                new String[] {"inbox markers", "markers"},
                new String[] {"dead-lettered (mq.sys.dmq)", "deadLettered"},
                new String[] {"still queued", "queued"},
                new String[] {"shortest wait before a retry, ms", "shortestRetryGapMillis"});
        for (String[] row : rows) {
            System.out.printf("  %-33s  %5s%n", row[0], known(status, row[1]));
        }
        if (!"ok".equals(status.getString("brokerStatistics", "ok"))) {
            System.out.println("  ? the broker's statistics could not be read: "
                    + status.getString("brokerStatistics"));
        }
        System.out.println();
    }

    private void awaitPurge() {
        String planted = "SELECT count(*) FROM inbox WHERE scope = 'expired-demo'";
        System.out.print("Waiting for the first scheduled purge (10 s after deployment) to delete the "
                + EXPIRED_MARKERS + " expired markers planted before it");
        long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        while (System.nanoTime() < deadline) {
            long left = database.count(planted);
            if (left == 0) {
                System.out.println(" done: none left");
                return;
            }
            System.out.print(".");
            sleep(1_000);
        }
        System.out.println(" not within 60 s: " + database.count(planted) + " left; the server's log ("
                + domain.serverLog() + ") may say why.");
    }

    private synchronized void stop() {
        if (stopping) {
            return;
        }
        stopping = true;
        if (domain.running()) {
            System.out.print("Stopping Payara Server...");
            domain.stop();
            System.out.println(" done");
        }
        if (database != null && database.embedded()) {
            System.out.print("Stopping PostgreSQL...");
            database.close();
            System.out.println(" done");
        }
    }

    private void requireFreePorts() {
        for (Map.Entry<Integer, String> entry : PORTS.entrySet()) {
            int port = entry.getKey() + portOffset;
            try (ServerSocket socket = new ServerSocket(port, 1, InetAddress.getLoopbackAddress())) {
                socket.setReuseAddress(true);
            } catch (IOException e) {
                throw new LauncherException("port " + port + " (" + entry.getValue() + ") is already in use. "
                        + "Stop what listens there (see: ss -ltnp 'sport = :" + port + "'), or a sample "
                        + "still running, and try again; or move the sample's ports with TXINBOX_SAMPLE_PORT_OFFSET.");
            }
        }
    }

    /** Runs one step, and prints its time when it is done (the server's steps print a dot every 2 s meanwhile). */
    private void step(String label, Runnable action) {
        System.out.print(label + "...");
        System.out.flush();
        long start = System.nanoTime();
        action.run();
        goOn();
        System.out.println(" done (" + Math.round((System.nanoTime() - start) / 1e9) + " s)");
    }

    private void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new LauncherException("Interrupted");
        }
        goOn();
    }

    /** Ends the run quietly once Ctrl+C has begun to stop everything. */
    private void goOn() {
        if (stopping) {
            throw new LauncherException("stopped");
        }
    }
}
