package io.github.txinbox.sample.launcher;

import jakarta.json.Json;
import jakarta.json.JsonException;
import jakarta.json.JsonNumber;
import jakarta.json.JsonObject;
import java.io.IOException;
import java.io.StringReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CountDownLatch;

/**
 * Runs the sample: PostgreSQL, a new Payara Server domain on 127.0.0.1 with its built-in OpenMQ broker, the sample
 * EAR, and one demo batch of orders; prints what became of the batch, and keeps everything running until Ctrl+C,
 * which stops Payara and then PostgreSQL. Its settings are environment variables, listed in ear-sample/README.md.
 */
public final class SampleLauncher {

    private static final int ORDERS = 100;
    private static final int DUPLICATES = 20;
    private static final int FAILING = 5;
    private static final int POISON = 1;
    /** Expired markers planted before deployment, for the first scheduled purge to delete. */
    private static final int EXPIRED_MARKERS = 50;
    /** The rows of the outcome table: each label, then the field of the batch's status it shows. */
    private static final String[] OUTCOME = {"messages sent", "sent", "deliveries (onMessage calls)", "deliveries",
        "  of them redeliveries", "redeliveries", "handler runs", "handled", "  of them failed (rolled back)",
        "failures", "duplicates skipped by the inbox", "duplicatesSkipped", "invoices", "invoices", "orders invoiced",
        "invoicedOrders", "orders invoiced twice", "ordersInvoicedTwice", "inbox markers", "markers",
        "dead-lettered (mq.sys.dmq)", "deadLettered", "still queued", "queued", "shortest wait before a retry, ms",
        "shortestRetryGapMillis"};

    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private final Path target;
    private final boolean xa;
    private final PayaraDomain domain;
    private final String api;
    private Database database;
    private volatile boolean stopping;

    private SampleLauncher(Path target, boolean xa, int portOffset) {
        this.target = target;
        this.xa = xa;
        this.domain = new PayaraDomain(target.resolve("payara6"), target.resolve("sample-run"), 8000 + portOffset);
        this.api = "http://127.0.0.1:" + (8080 + portOffset) + "/sample/api/orders";
    }

    public static void main(String[] args) {
        SampleLauncher launcher;
        try {
            String xa = setting("TXINBOX_SAMPLE_XA", "|true|false", "true or false");
            String offset = setting("TXINBOX_SAMPLE_PORT_OFFSET", "|[0-4]?\\d{1,4}|50000", "a number from 0 to 50000");
            launcher = new SampleLauncher(Path.of(System.getProperty("sample.target",
                    "ear-sample/sample-launcher/target")), xa.equals("true"),
                    offset.isEmpty() ? 0 : Integer.parseInt(offset));
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

    private void run() {
        step(Database.named() ? "Connecting to PostgreSQL" : "Starting PostgreSQL (embedded, on 127.0.0.1)", () -> {
            database = Database.open(target, xa);
            database.prepare(xa, EXPIRED_MARKERS);
        });
        System.out.println("  " + database.url() + ", max_prepared_transactions = "
                + database.maxPreparedTransactions() + "; the sample's "
                + (xa ? "XA datasource (PGXADataSource)" : "non-XA datasource (PGSimpleDataSource)"));
        step("Creating a new Payara Server domain", domain::create);
        step("Starting it on 127.0.0.1", () -> domain.start(Map.of("SAMPLE_DB_URL", database.url(),
                "SAMPLE_DB_USER", database.user(), "SAMPLE_DB_PASSWORD", database.password(),
                "SAMPLE_DB_DATASOURCE_CLASS", xa ? "org.postgresql.xa.PGXADataSource"
                        : "org.postgresql.ds.PGSimpleDataSource",
                "SAMPLE_XA", Boolean.toString(xa))));
        step("Deploying txinbox-sample.ear", () -> domain.deploy(target.resolve("txinbox-sample.ear")));

        JsonObject sent = call("POST", "/demo?orders=" + ORDERS + "&duplicates=" + DUPLICATES + "&failing="
                + FAILING + "&poison=" + POISON);
        String batch = sent.getString("batch");
        System.out.println("Sent " + sent.getInt("messagesSent") + " messages (batch " + batch + "): " + ORDERS
                + " orders, " + DUPLICATES + " of them twice, " + FAILING + " failing on their first delivery, and "
                + POISON + " failing on every delivery.");
        System.out.println(xa ? "  To XaOrderPlacedListener: onMessage runs in the container's XA transaction, and the "
                + "broker's acknowledgement commits with the invoice."
                : "  To OrderPlacedListener: onMessage runs without a transaction, OrderPlacedHandler's own "
                + "transaction commits the invoice, and the broker acknowledges when onMessage returns.");
        printOutcome(awaitSettled(batch));
        awaitPurge();

        System.out.println();
        System.out.println("The sample is running. Look at it:");
        System.out.println("  curl '" + api + "/status?batch=" + batch + "'");
        System.out.println("  curl -X POST '" + api + "/demo?orders=10&duplicates=3&failing=1'"
                + "   (then ask status about the batch it returns)");
        System.out.println("  the server's log: " + domain.serverLog());
        System.out.println(database.embedded() != null ? "Press Ctrl+C to stop Payara Server, then PostgreSQL."
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
        JsonObject status = call("GET", "/status?batch=" + batch);
        while (System.nanoTime() < deadline) {
            sleep(500);
            status = call("GET", "/status?batch=" + batch);
            long deliveries = count(status, "deliveries");
            boolean settled = count(status, "invoicedOrders") >= ORDERS && count(status, "queued") <= 0
                    && (count(status, "deadLettered") < 0 || count(status, "deadLettered") >= POISON);
            quiet = settled && deliveries == lastDeliveries ? quiet + 1 : 0;
            lastDeliveries = deliveries;
            if (quiet >= 4 || ++polls % 4 == 0) {
                System.out.println("  " + (quiet >= 4 ? "settled: " : "") + count(status, "invoicedOrders") + " of "
                        + ORDERS + " orders invoiced, " + deliveries + " deliveries, " + known(status, "queued")
                        + " queued, " + known(status, "deadLettered") + " dead-lettered");
            }
            if (quiet >= 4) {
                return status;
            }
        }
        System.out.println("  not settled within 3 minutes; the table shows where it stands, the server's log ("
                + domain.serverLog() + ") may say why.");
        return status;
    }

    private static void printOutcome(JsonObject status) {
        System.out.println();
        System.out.println("  delivered to: " + status.getString("listeners", "?"));
        System.out.println("  outcome of the batch               count");
        System.out.println("  ---------------------------------  -----");
        for (int row = 0; row < OUTCOME.length; row += 2) {
            System.out.printf("  %-33s  %5s%n", OUTCOME[row], known(status, OUTCOME[row + 1]));
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
        while (database.count(planted) > 0) {
            if (System.nanoTime() > deadline) {
                System.out.println(" not within 60 s: " + database.count(planted) + " left; the server's log ("
                        + domain.serverLog() + ") may say why.");
                return;
            }
            System.out.print(".");
            sleep(1_000);
        }
        System.out.println(" done: none left");
    }

    /** Calls the sample's REST API; returns its JSON answer. */
    private JsonObject call(String method, String path) {
        goOn();
        HttpRequest request = HttpRequest.newBuilder(URI.create(api + path)).timeout(Duration.ofSeconds(60))
                .method(method, HttpRequest.BodyPublishers.noBody()).build();
        HttpResponse<String> response;
        try {
            response = http.send(request, HttpResponse.BodyHandlers.ofString());
        } catch (IOException e) {
            throw new LauncherException(method + " " + request.uri() + " failed: " + e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new LauncherException("Interrupted");
        }
        if (response.statusCode() != 200) {
            // The body of a server error is an HTML page with a stack trace: the server log has the same, readable.
            throw new LauncherException(method + " " + request.uri() + " answered " + response.statusCode()
                    + ". The server's log says why: " + domain.serverLog());
        }
        try (var reader = Json.createReader(new StringReader(response.body()))) {
            return reader.readObject();
        } catch (JsonException e) {
            throw new LauncherException(request.uri() + " answered something other than a JSON object: "
                    + e.getMessage());
        }
    }

    /** A count from a batch's status, or -1 where the server could not tell (JSON null). */
    private static long count(JsonObject status, String name) {
        return status.get(name) instanceof JsonNumber number ? number.longValue() : -1;
    }

    private static String known(JsonObject status, String name) {
        long value = count(status, name);
        return value < 0 ? "?" : Long.toString(value);
    }

    /** An environment variable, which must be empty or match the pattern. */
    private static String setting(String name, String pattern, String what) {
        String value = System.getenv().getOrDefault(name, "").strip();
        if (!value.matches(pattern)) {
            throw new LauncherException(name + " must be " + what + ", not \"" + value + "\"");
        }
        return value;
    }

    private synchronized void stop() {
        if (stopping) {
            return;
        }
        stopping = true;
        if (domain.started()) {
            System.out.print("Stopping Payara Server...");
            domain.stop();
            System.out.println(" done");
        }
        if (database != null && database.embedded() != null) {
            System.out.print("Stopping PostgreSQL...");
            database.close();
            System.out.println(" done");
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
