package io.github.txinbox.bench;

import io.github.txinbox.bench.http.BenchResources;
import io.github.txinbox.http.Idempotent;
import io.github.txinbox.it.app.TestDatabase;
import io.github.txinbox.it.harness.Deployments;
import java.net.URI;
import java.net.URL;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.container.test.api.OperateOnDeployment;
import org.jboss.arquillian.container.test.api.RunAsClient;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.arquillian.test.api.ArquillianResource;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Item 8: a Jakarta REST endpoint with {@code @Idempotent} against the same endpoint without, in requests per second.
 * Both write one invoice in a transaction of their own and answer 201 with a small JSON body; each request of the
 * idempotent arm carries a new key, so that every one runs the method and stores its response (the cost of the first
 * request; a replay costs less). A third endpoint writes the marker's row with a response by hand, in one INSERT and
 * without any check: the floor of what a stored response costs. With {@value Baseline#PROPERTY}, a fourth arm sends
 * the idempotent arm's requests to the same endpoint deployed with the earlier library, beside this build's: the guard
 * of {@code @Idempotent}'s path. {@value #CLIENTS} client threads send {@value #REQUESTS} requests per round over
 * HTTP/1.1 keep-alive connections; the arms take turns, in an order that rotates every round.
 */
@Order(8)
@RunAsClient
@ExtendWith(ArquillianExtension.class)
class HttpThroughputBenchmark {

    private static final int REQUESTS = 4_000;
    private static final int ROUNDS = 7;
    private static final int CLIENTS = 8;

    private static final HttpClient HTTP = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(10)).build();

    @ArquillianResource
    @OperateOnDeployment("bench")
    private URL application;

    @ArquillianResource
    @OperateOnDeployment("baseline")
    private URL baselineApplication;

    @Deployment(name = "bench", order = 1, testable = false)
    static WebArchive deployment() {
        Results.prepare();
        return Deployments.war(HttpThroughputBenchmark.class).addPackage(BenchResources.class.getPackage());
    }

    /** The same endpoints with the earlier library, when the run names one. */
    @Deployment(name = "baseline", order = 2, testable = false)
    static WebArchive baseline() {
        return earlier().map(earlier -> earlier.into(Deployments.war(HttpBaseline.class)
                        .addPackage(BenchResources.class.getPackage())))
                .orElseGet(() -> Baseline.nothing("HttpBaseline"));
    }

    /**
     * The earlier library, where it has {@code @Idempotent} in {@code inbox-http}, which these endpoints name: a
     * commit before the module held it in {@code inbox-cdi}, under another package, and is not measured here.
     */
    private static Optional<Baseline> earlier() {
        return Baseline.configured().filter(Baseline::hasHttp);
    }

    /** Names the baseline's deployment. */
    static final class HttpBaseline {
        private HttpBaseline() {
        }
    }

    /** Sends a round to one endpoint and returns its requests per second. */
    private double requestsPerSecond(Arm arm) throws Exception {
        String path = arm.path;
        boolean keyed = arm.keyed;
        URL base = arm == Arm.BASELINE ? baselineApplication : application;
        URI uri = URI.create(base.toString()).resolve("bench/orders/" + path);
        AtomicInteger left = new AtomicInteger(REQUESTS);
        ExecutorService clients = Executors.newFixedThreadPool(CLIENTS);
        try {
            List<Future<Integer>> sent = new ArrayList<>();
            long start = System.nanoTime();
            for (int c = 0; c < CLIENTS; c++) {
                sent.add(clients.submit(() -> {
                    int created = 0;
                    while (left.getAndDecrement() > 0) {
                        String orderId = "order-" + UUID.randomUUID();
                        HttpRequest.Builder request = HttpRequest.newBuilder(uri).timeout(Duration.ofMinutes(1))
                                .header("Content-Type", "text/plain")
                                .POST(HttpRequest.BodyPublishers.ofString(orderId));
                        if (keyed) {
                            request.header(Idempotent.IDEMPOTENCY_KEY, UUID.randomUUID().toString());
                        }
                        HttpResponse<String> response = HTTP.send(request.build(),
                                HttpResponse.BodyHandlers.ofString());
                        if (response.statusCode() != 201) {
                            throw new IllegalStateException(path + ": " + response.statusCode() + " "
                                    + response.body());
                        }
                        created++;
                    }
                    return created;
                }));
            }
            int created = 0;
            for (Future<Integer> future : sent) {
                created += future.get();
            }
            long nanos = System.nanoTime() - start;
            if (created != REQUESTS) {
                throw new IllegalStateException(path + ": " + created + " of " + REQUESTS + " requests answered 201");
            }
            return REQUESTS / (nanos / 1e9);
        } finally {
            clients.shutdownNow();
        }
    }

    /** One endpoint of the benchmark: its path, and whether its requests carry a key. */
    private enum Arm {
        WITHOUT("plain", false),
        IDEMPOTENT("idempotent", true),
        BY_HAND("by-hand", true),
        BASELINE("idempotent", true);

        private final String path;
        private final boolean keyed;

        Arm(String path, boolean keyed) {
            this.path = path;
            this.keyed = keyed;
        }
    }

    @Test
    void withAndWithoutTheKey() throws Exception {
        long withBefore = invoices(BenchResources.WITH);
        Optional<Baseline> earlier = earlier();
        Arm[] arms = earlier.isPresent() ? Arm.values()
                : new Arm[] {Arm.WITHOUT, Arm.IDEMPOTENT, Arm.BY_HAND};
        // A warm-up round each: the first requests also load the classes and fill the pools.
        for (Arm arm : arms) {
            requestsPerSecond(arm);
        }
        long[] updatesBefore = updates();
        Map<Arm, List<Double>> rates = new EnumMap<>(Arm.class);
        for (Arm arm : arms) {
            rates.put(arm, new ArrayList<>());
        }
        for (int round = 0; round < ROUNDS; round++) {
            // Rotate which goes first, so that none always follows another's backlog.
            for (int k = 0; k < arms.length; k++) {
                Arm arm = arms[(round + k) % arms.length];
                rates.get(arm).add(requestsPerSecond(arm));
            }
        }
        long[] updatesAfter = updates();
        long invoiced = invoices(BenchResources.WITH) - withBefore;
        long keyed = (long) REQUESTS * (ROUNDS + 1) * (earlier.isPresent() ? 2 : 1);
        if (invoiced != keyed) {
            throw new IllegalStateException(invoiced + " invoices for " + keyed + " keyed requests");
        }
        record("Jakarta REST endpoint with @Idempotent (a new key per request: the method runs and its response is "
                + "stored) vs the same endpoint without, requests/s", rates.get(Arm.WITHOUT),
                rates.get(Arm.IDEMPOTENT), ">= 0.85");
        record("the floor: without @Idempotent, but with the marker's row and the response written by hand in one "
                + "INSERT, vs without, requests/s", rates.get(Arm.WITHOUT), rates.get(Arm.BY_HAND), "-");
        record("@Idempotent vs that row by hand: what the library adds over the row it must write, requests/s",
                rates.get(Arm.BY_HAND), rates.get(Arm.IDEMPOTENT), "-");
        earlier.ifPresent(baseline -> record("@Idempotent, this build vs " + baseline.name() + ", requests/s",
                rates.get(Arm.BASELINE), rates.get(Arm.IDEMPOTENT), "-"));
        long updated = updatesAfter[0] - updatesBefore[0];
        long hot = updatesAfter[1] - updatesBefore[1];
        Results.record("8", "HOT share of the response's UPDATE in the @Idempotent rounds (n_tup_hot_upd / n_tup_upd "
                + "of the table)", "-", updated == 0 ? "no update counted"
                        : String.format(Locale.ROOT, "%.1f %% (%d of %d)", 100.0 * hot / updated, hot, updated),
                null, "-", "pg_stat_user_tables, read before the first measured round and after the last, each "
                        + "after a pause for the statistics to arrive; the rounds wrote " + (long) REQUESTS * ROUNDS
                        * (earlier.isPresent() ? 2 : 1) + " responses" + (earlier.isPresent() ? ", half of them "
                        + "through the earlier library" : ""));
    }

    /**
     * The table's updates so far and how many of them were HOT (they wrote no index entry), as PostgreSQL's
     * statistics count them; read after a pause, since a backend reports its counts up to a second late.
     */
    private static long[] updates() throws InterruptedException {
        Thread.sleep(2_000);
        String where = " FROM pg_stat_user_tables WHERE schemaname = ? AND relname = 'inbox'";
        return new long[] {
            TestDatabase.queryLong("SELECT n_tup_upd" + where, TestDatabase.SCHEMA),
            TestDatabase.queryLong("SELECT n_tup_hot_upd" + where, TestDatabase.SCHEMA)};
    }

    private static void record(String measure, List<Double> baseline, List<Double> measured, String target) {
        List<Double> ratios = Results.roundRatios(baseline, measured);
        Results.record("8", measure, Results.format(Results.median(baseline), "req/s"),
                Results.format(Results.median(measured), "req/s"), Results.median(ratios), target, ROUNDS
                        + " rounds of " + REQUESTS + " requests per arm from " + CLIENTS + " client threads; the "
                        + "ratio is the median of the rounds' ratios, which ranged from " + String.format("%.3f to %.3f",
                        ratios.stream().mapToDouble(d -> d).min().orElse(0),
                        ratios.stream().mapToDouble(d -> d).max().orElse(0)));
    }

    private static long invoices(String consumer) {
        return TestDatabase.queryLong("SELECT count(*) FROM " + TestDatabase.SCHEMA + ".invoice WHERE consumer = ?",
                consumer);
    }
}
