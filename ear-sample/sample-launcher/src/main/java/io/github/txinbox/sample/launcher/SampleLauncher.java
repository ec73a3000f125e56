package io.github.txinbox.sample.launcher;

import io.github.txinbox.InboxSchema;
import io.github.txinbox.InboxTable;
import io.github.txinbox.dev.LocalPostgres;
import jakarta.json.Json;
import jakarta.json.JsonException;
import jakarta.json.JsonNumber;
import jakarta.json.JsonObject;
import java.io.IOException;
import java.io.StringReader;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
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

    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private final Path target;
    private final boolean xa;
    private final PayaraDomain domain;
    private final String api;
    private LocalPostgres database;
    private volatile boolean stopping;

    private SampleLauncher(Path target, boolean xa, int portOffset) {
        this.target = target;
        this.xa = xa;
        this.domain = new PayaraDomain(target.resolve("payara6"), target.resolve("sample-run"), 8000 + portOffset);
        this.api = "http://127.0.0.1:" + (8080 + portOffset) + "/sample/api/orders";
    }

    public static void main(String[] args) {
        SampleLauncher launcher = null;
        try {
            String xa = setting("TXINBOX_SAMPLE_XA", "|true|false", "true or false");
            String offset = setting("TXINBOX_SAMPLE_PORT_OFFSET", "|[0-4]?\\d{1,4}|50000", "a number from 0 to 50000");
            // Absolute: asadmin runs in target/sample-run, not in this directory.
            launcher = new SampleLauncher(Path.of(System.getProperty("sample.target",
                    "ear-sample/sample-launcher/target")).toAbsolutePath(), xa.equals("true"),
                    offset.isEmpty() ? 0 : Integer.parseInt(offset));
            Runtime.getRuntime().addShutdownHook(new Thread(launcher::stop, "sample-stop"));
            launcher.run();
        } catch (IllegalStateException | UncheckedIOException e) {
            if (launcher == null || !launcher.stopping) {
                System.out.println();
                System.err.println("The sample could not run: " + e.getMessage());
                System.exit(2);
            }
        }
    }

    private void run() {
        String named = System.getenv().getOrDefault("TXINBOX_SAMPLE_DB_URL", "");
        step(named.isBlank() ? "Starting PostgreSQL (embedded, on 127.0.0.1)" : "Connecting to PostgreSQL", () -> {
            // XA: one prepared transaction per MDB transaction in flight (Payara's MDB pool: up to 32). Stopped by
            // stop(), after Payara.
            database = named.isBlank() ? LocalPostgres.start(target.resolve("postgres"),
                    Map.of("max_prepared_transactions", xa ? "64" : "0"), false) : LocalPostgres.named(named,
                    System.getenv().getOrDefault("TXINBOX_SAMPLE_DB_USER", "postgres"),
                    System.getenv().getOrDefault("TXINBOX_SAMPLE_DB_PASSWORD", "postgres"));
            prepareDatabase();
        });
        System.out.println("  " + database.url() + ", max_prepared_transactions = " + database.query(
                "SELECT current_setting('max_prepared_transactions')::int") + "; the sample's "
                + (xa ? "XA datasource (PGXADataSource)" : "non-XA datasource (PGSimpleDataSource)"));
        step("Creating a new Payara Server domain", domain::create);
        step("Starting it on 127.0.0.1", () -> domain.start(Map.of("SAMPLE_DB_URL", database.url(),
                "SAMPLE_DB_USER", database.user(), "SAMPLE_DB_PASSWORD", database.password(),
                "SAMPLE_DB_DATASOURCE_CLASS", xa ? "org.postgresql.xa.PGXADataSource"
                        : "org.postgresql.ds.PGSimpleDataSource",
                "SAMPLE_XA", Boolean.toString(xa))));
        step("Deploying txinbox-sample.ear", () -> domain.deploy(target.resolve("txinbox-sample.ear")));

        JsonObject sent = json(call("POST", "/demo?orders=" + ORDERS + "&duplicates=" + DUPLICATES + "&failing="
                + FAILING + "&poison=" + POISON));
        String batch = sent.getString("batch");
        System.out.println("Sent " + sent.getInt("messagesSent") + " messages (batch " + batch + "): " + ORDERS
                + " orders, " + DUPLICATES + " of them twice, " + FAILING + " failing on their first delivery, and "
                + POISON + " failing on every delivery.");
        System.out.println(xa ? "  To XaOrderPlacedListener: onMessage runs in the container's XA transaction, and the "
                + "broker's acknowledgement commits with the invoice."
                : "  To OrderPlacedListener: onMessage runs without a transaction, OrderPlacedHandler's own "
                + "transaction commits the invoice, and the broker acknowledges when onMessage returns.");
        awaitSettled(batch);
        System.out.println();
        System.out.println(call("GET", "/report?batch=" + batch));
        System.out.println("The sample is running. Look at it:");
        System.out.println("  curl '" + api + "/report?batch=" + batch + "'   (the table above; status?batch= has "
                + "the same as JSON)");
        System.out.println("  curl -X POST '" + api + "/demo?orders=10&duplicates=3&failing=1'"
                + "   (then ask report about the batch it returns)");
        System.out.println("  the server's log: " + domain.serverLog());
        System.out.println(database.embedded() != null ? "Press Ctrl+C to stop Payara Server, then PostgreSQL."
                : "Press Ctrl+C to stop Payara Server (your PostgreSQL keeps running).");
        try {
            new CountDownLatch(1).await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /**
     * Creates the sample's tables where they are missing (the inbox's from txinbox's own DDL), and plants expired
     * markers for the scheduled purge to delete; with XA, first checks that the server allows prepared transactions.
     */
    private void prepareDatabase() {
        if (xa && database.query("SELECT current_setting('max_prepared_transactions')::int") == 0) {
            throw new IllegalStateException("XA needs max_prepared_transactions > 0 on " + database.url() + ", and it "
                    + "is 0. Run the sample without TXINBOX_SAMPLE_XA, or raise the setting and restart PostgreSQL.");
        }
        for (String sql : List.of(InboxSchema.createTableSql(InboxTable.DEFAULT),
                "CREATE TABLE IF NOT EXISTS sample_invoice (id text PRIMARY KEY, order_id text NOT NULL, "
                        + "amount numeric(12, 2) NOT NULL, created_at timestamptz NOT NULL)",
                "CREATE INDEX IF NOT EXISTS sample_invoice_order_idx ON sample_invoice (order_id)",
                "INSERT INTO inbox (scope, message_id, processed_at) SELECT 'expired-demo', 'old-' || i, "
                        + "timestamptz '2001-01-01 00:00:00+00' FROM generate_series(1, " + EXPIRED_MARKERS
                        + ") AS i ON CONFLICT DO NOTHING")) {
            database.query(sql);
        }
    }

    /**
     * Waits until the batch has settled (every order invoiced, the poison order dead-lettered, deliveries stopped) and
     * the first scheduled purge has deleted the planted markers, printing where they stand every 2 s.
     */
    private void awaitSettled(String batch) {
        System.out.println("Waiting for the batch to settle, and for the first scheduled purge (10 s after deployment) "
                + "to delete the " + EXPIRED_MARKERS + " expired markers planted before it:");
        long deadline = System.nanoTime() + Duration.ofMinutes(3).toNanos();
        for (int polls = 1; ; polls++) {
            sleep(500);
            JsonObject status = json(call("GET", "/status?batch=" + batch));
            boolean done = status.getBoolean("settled") && status.getJsonNumber("expiredDemoMarkers").longValue() == 0;
            boolean late = System.nanoTime() > deadline;
            if (done || late || polls % 4 == 0) {
                System.out.println("  " + (done ? "settled: " : "") + known(status, "invoicedOrders") + " of " + ORDERS
                        + " orders invoiced, " + known(status, "deliveries") + " deliveries, " + known(status, "queued")
                        + " queued, " + known(status, "deadLettered") + " dead-lettered; " + (done ? "expired markers: "
                        + "none left" : known(status, "expiredDemoMarkers") + " expired markers left"));
            }
            if (done) {
                return;
            }
            if (late) {
                System.out.println("  not settled within 3 minutes; the table shows where it stands, the server's log ("
                        + domain.serverLog() + ") may say why.");
                return;
            }
        }
    }

    /** Calls the sample's REST API; returns its answer. */
    private String call(String method, String path) {
        goOn();
        HttpRequest request = HttpRequest.newBuilder(URI.create(api + path)).timeout(Duration.ofSeconds(60))
                .method(method, HttpRequest.BodyPublishers.noBody()).build();
        HttpResponse<String> response;
        try {
            response = http.send(request, HttpResponse.BodyHandlers.ofString());
        } catch (IOException e) {
            throw new IllegalStateException(method + " " + request.uri() + " failed: " + e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("Interrupted");
        }
        if (response.statusCode() != 200) {
            // The body of a server error is an HTML page with a stack trace: the server log has the same, readable.
            throw new IllegalStateException(method + " " + request.uri() + " answered " + response.statusCode()
                    + ". The server's log says why: " + domain.serverLog());
        }
        return response.body();
    }

    private static JsonObject json(String answer) {
        try (var reader = Json.createReader(new StringReader(answer))) {
            return reader.readObject();
        } catch (JsonException e) {
            throw new IllegalStateException("The sample answered something other than JSON: " + e.getMessage());
        }
    }

    /** A count of a batch's status, or {@code ?} where the server could not tell (JSON null). */
    private static String known(JsonObject status, String name) {
        return status.get(name) instanceof JsonNumber count ? count.toString() : "?";
    }

    /** An environment variable, which must be empty or match the pattern. */
    private static String setting(String name, String pattern, String what) {
        String value = System.getenv().getOrDefault(name, "").strip();
        if (!value.matches(pattern)) {
            throw new IllegalStateException(name + " must be " + what + ", not \"" + value + "\"");
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
            try {
                domain.stop();
                System.out.println(" done");
            } catch (IllegalStateException | UncheckedIOException e) {
                // A server that never started (its port taken, say) has nothing to stop: PostgreSQL still must.
                System.out.println(" " + e.getMessage());
            }
        }
        if (database != null && database.embedded() != null) {
            System.out.print("Stopping PostgreSQL...");
            try {
                database.close();
                System.out.println(" done");
            } catch (UncheckedIOException e) {
                System.out.println(" " + e.getMessage());
            }
        }
    }

    /** Runs one step, and prints its time when it is done. */
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
            throw new IllegalStateException("Interrupted");
        }
        goOn();
    }

    /** Ends the run quietly once Ctrl+C has begun to stop everything. */
    private void goOn() {
        if (stopping) {
            throw new IllegalStateException("stopped");
        }
    }
}
