package io.github.txinbox.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.txinbox.InboxOutcome;
import io.github.txinbox.InboxSettings;
import io.github.txinbox.http.Idempotent;
import io.github.txinbox.it.app.TestDatabase;
import io.github.txinbox.it.crash.CrashPoint;
import io.github.txinbox.it.harness.CrashApplication;
import io.github.txinbox.it.harness.Deployments;
import io.github.txinbox.it.harness.OrderRequests;
import io.github.txinbox.it.http.CallerOrders;
import io.github.txinbox.it.http.EjbHttpOrders;
import io.github.txinbox.it.http.HttpOrders;
import io.github.txinbox.it.http.OrderDesk;
import io.github.txinbox.it.http.PlainOrders;
import io.github.txinbox.it.portable.DecisionLog;
import java.net.URL;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.container.test.api.RunAsClient;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.arquillian.test.api.ArquillianResource;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * {@code @Idempotent} seen by an HTTP client, against the deployed application, its effects counted in PostgreSQL: a
 * retry of a committed request replayed, twenty concurrent copies with one effect, a key reused for another request, a
 * missing or bad key, a first attempt that does not commit, a committed 4xx, a response too long to store, and a copy
 * that arrives while the first is still running; keys kept per caller. On a CDI bean with {@code @Transactional} and on
 * a stateless session bean.
 */
@ExtendWith(ArquillianExtension.class)
@RunAsClient
@Tag("portable")
class HttpIdempotencyIT {

    /** The claim's wait in this deployment, where the server reads MicroProfile Config (else ten seconds). */
    private static final String MAX_WAIT = "PT2S";

    @ArquillianResource
    private URL application;

    @Deployment(testable = false)
    static WebArchive deployment() {
        WebArchive war = Deployments.war(HttpIdempotencyIT.class, CrashPoint.class, CrashPoint.Phase.class,
                        OrderRequests.class, DecisionLog.class)
                .addPackage(HttpOrders.class.getPackage());
        return Deployments.withSettings(war, InboxSettings.CLAIM_MAX_WAIT + "=" + MAX_WAIT);
    }

    private HttpResponse<String> send(OrderRequests request) throws Exception {
        return request.send(application);
    }

    private static String newKey() {
        return UUID.randomUUID().toString();
    }

    private static long invoices(String scope, String orderId) {
        return TestDatabase.invoices(scope, orderId);
    }

    private static long calls(String scope, String orderId) {
        return TestDatabase.handlerCalls(scope, orderId);
    }

    private static long markers(String scope, String key) {
        return TestDatabase.markers(TestDatabase.INBOX, scope, key);
    }

    /** The requests reported with an outcome for a key, as the test application's observer of events records them. */
    private static long reported(String scope, String key, InboxOutcome outcome) {
        return TestDatabase.decisions(scope, key, outcome.name());
    }

    private static boolean replayed(HttpResponse<?> response) {
        return OrderRequests.replayed(response);
    }

    private static void assertProblem(HttpResponse<String> response, int status, String type) {
        assertEquals(status, response.statusCode(), response.body());
        assertEquals("application/problem+json", response.headers().firstValue("Content-Type").orElse("")
                .replaceAll(";.*", ""), response.body());
        assertTrue(response.body().contains("\"type\":\"urn:txinbox:problem:" + type + "\""), response.body());
        assertTrue(response.body().contains("\"status\":" + status), response.body());
    }

    /** A replay has the first response's status, body and headers that matter, and the replay header. */
    private static void assertReplayOf(HttpResponse<String> first, HttpResponse<String> replay) {
        assertEquals(first.statusCode(), replay.statusCode());
        assertEquals(first.body(), replay.body());
        for (String header : List.of("Content-Type", "Location", "ETag")) {
            assertEquals(first.headers().firstValue(header), replay.headers().firstValue(header), header);
        }
        assertTrue(replayed(replay), "no " + Idempotent.REPLAYED + " header on " + replay.headers().map());
        assertTrue(!replayed(first), "the first response says it is a replay");
    }

    private void replaysTheCommittedResponse(String path, String scope) throws Exception {
        String key = newKey();
        String orderId = TestDatabase.newOrderId();
        HttpResponse<String> first = send(OrderRequests.order(path, key, orderId));
        assertEquals(201, first.statusCode(), first.body());
        assertTrue(first.headers().firstValue("Location").orElse("").contains("/orders/"), first.headers().map()
                .toString());
        assertTrue(first.body().contains(orderId), first.body());
        assertEquals(Boolean.TRUE, first.headers().firstValue("X-Not-Replayed").isPresent());

        HttpResponse<String> retry = send(OrderRequests.order(path, key, orderId));
        assertReplayOf(first, retry);
        assertNull(retry.headers().firstValue("X-Not-Replayed").orElse(null), "a header not stored was replayed");
        // The draft's form of the key, a quoted string, is the same key.
        HttpResponse<String> quoted = send(OrderRequests.order(path, null, orderId).withKeys("\"" + key + "\""));
        assertReplayOf(first, quoted);

        assertEquals(1, invoices(scope, orderId), "invoices");
        assertEquals(1, calls(scope, orderId), "calls of the method");
        assertEquals(1, markers(scope, key), "markers");
        // Reported once each transaction ended: the first request, then the two replays.
        assertEquals(1, reported(scope, key, InboxOutcome.PROCESSED), "PROCESSED events");
        assertEquals(2, reported(scope, key, InboxOutcome.DUPLICATE), "DUPLICATE events");
    }

    @Test
    void aRetryOfACommittedRequestGetsItsResponseAndTheMethodDoesNotRun() throws Exception {
        replaysTheCommittedResponse("orders", HttpOrders.SCOPE);
    }

    @Test
    void aStatelessSessionBeanEndpointIsReplayedToo() throws Exception {
        replaysTheCommittedResponse("ejb-orders", EjbHttpOrders.SCOPE);
    }

    @Test
    void twentyConcurrentCopiesOfOneRequestHaveOneEffect() throws Exception {
        String key = newKey();
        String orderId = TestDatabase.newOrderId();
        OrderRequests post = OrderRequests.order("orders", key, orderId).behaving("slow");
        int copies = 20;
        CountDownLatch start = new CountDownLatch(1);
        ExecutorService threads = Executors.newFixedThreadPool(copies);
        List<Future<HttpResponse<String>>> sent = new ArrayList<>();
        try {
            for (int i = 0; i < copies; i++) {
                sent.add(threads.submit(() -> {
                    start.await();
                    return send(post);
                }));
            }
            start.countDown();
            int ran = 0;
            int inProgress = 0;
            Set<String> bodies = new HashSet<>();
            for (Future<HttpResponse<String>> future : sent) {
                HttpResponse<String> response = future.get();
                if (response.statusCode() == 409) {
                    assertProblem(response, 409, "in-progress");
                    assertTrue(response.headers().firstValue("Retry-After").isPresent(), "no Retry-After");
                    inProgress++;
                } else {
                    assertEquals(201, response.statusCode(), response.body());
                    bodies.add(response.body());
                    ran += replayed(response) ? 0 : 1;
                }
            }
            assertEquals(1, ran, "responses that ran the method");
            assertEquals(1, bodies.size(), "every 201 has the first one's body: " + bodies);
            // The method takes 300 ms and the claim waits 2 s (10 s without MicroProfile Config): copies wait for
            // the first's commit and get its response.
            assertTrue(copies - 1 - inProgress >= 1, "no copy waited and got the stored response");
            System.out.printf("%d copies: 1 ran, %d replayed, %d answered 409%n", copies, copies - 1 - inProgress,
                    inProgress);
        } finally {
            threads.shutdownNow();
        }
        assertEquals(1, invoices(HttpOrders.SCOPE, orderId), "invoices");
        assertEquals(1, calls(HttpOrders.SCOPE, orderId), "calls of the method");
    }

    @Test
    void twoCallersEqualKeysNeverMeetWhereKeysArePerCaller() throws Exception {
        String key = newKey();
        String orderId = TestDatabase.newOrderId();
        OrderRequests order = OrderRequests.order("caller-orders", key, orderId);
        HttpResponse<String> alice = send(order.as("alice"));
        assertEquals(201, alice.statusCode(), alice.body());
        // The same key and the same request from another caller: its own first request, not alice's response.
        HttpResponse<String> bob = send(order.as("bob"));
        assertEquals(201, bob.statusCode(), bob.body());
        assertTrue(!replayed(bob), "bob got a replay of alice's response: " + bob.headers().map());
        assertTrue(!alice.headers().firstValue("Location").equals(bob.headers().firstValue("Location")),
                "one invoice's Location for both callers: " + alice.headers().map());
        // Each caller's retry gets its own response.
        assertReplayOf(alice, send(order.as("alice")));
        assertReplayOf(bob, send(order.as("bob")));
        assertEquals(2, invoices(CallerOrders.SCOPE, orderId), "invoices: one per caller");
        // Reported under the endpoint's scope, one series for all callers.
        assertEquals(2, reported(CallerOrders.SCOPE, key, InboxOutcome.PROCESSED), "PROCESSED events");
        assertEquals(2, reported(CallerOrders.SCOPE, key, InboxOutcome.DUPLICATE), "DUPLICATE events");
        assertEquals(2, calls(CallerOrders.SCOPE, orderId), "calls of the method");
        // Each caller's marker is under the scope and the hash of its name, as docs/http.md gives it; no name is kept.
        assertEquals(1, markers(callersScope("alice"), key), "alice's marker");
        assertEquals(1, markers(callersScope("bob"), key), "bob's marker");
        assertEquals(0, markers(CallerOrders.SCOPE, key), "a marker under the shared scope");
        assertEquals(0, TestDatabase.queryLong("SELECT count(*) FROM " + TestDatabase.INBOX + " WHERE message_id = ? "
                + "AND (scope LIKE '%alice%' OR scope LIKE '%bob%')", key), "a caller's name in the table");

        // Without a caller: 403, and nothing runs or is stored.
        String anonymousOrder = TestDatabase.newOrderId();
        String anonymousKey = newKey();
        assertProblem(send(OrderRequests.order("caller-orders", anonymousKey, anonymousOrder)), 403, "no-principal");
        assertEquals(0, calls(CallerOrders.SCOPE, anonymousOrder), "calls of the method without a caller");
        assertEquals(1, reported(CallerOrders.SCOPE, anonymousKey, InboxOutcome.INVALID_KEY), "INVALID_KEY events");
        assertEquals(0, TestDatabase.queryLong("SELECT count(*) FROM " + TestDatabase.INBOX
                + " WHERE message_id = ?", anonymousKey), "markers of the request without a caller");
        // Keys a shared endpoint keeps stay shared, whoever calls.
        String sharedKey = newKey();
        String sharedOrder = TestDatabase.newOrderId();
        HttpResponse<String> first = send(OrderRequests.order("orders", sharedKey, sharedOrder).as("alice"));
        assertEquals(201, first.statusCode(), first.body());
        assertReplayOf(first, send(OrderRequests.order("orders", sharedKey, sharedOrder).as("bob")));
        assertEquals(1, invoices(HttpOrders.SCOPE, sharedOrder), "invoices of the shared endpoint");
    }

    /** The scope a caller's keys of {@link CallerOrders} are stored under: the scope, ~, SHA-256 of the name. */
    private static String callersScope(String caller) throws Exception {
        return CallerOrders.SCOPE + "~" + Base64.getUrlEncoder().withoutPadding().encodeToString(
                MessageDigest.getInstance("SHA-256").digest(caller.getBytes(StandardCharsets.UTF_8)));
    }

    @Test
    void theSameKeyWithAnotherBodyIs422() throws Exception {
        String key = newKey();
        String orderId = TestDatabase.newOrderId();
        String other = TestDatabase.newOrderId();
        assertEquals(201, send(OrderRequests.order("orders", key, orderId)).statusCode());
        assertProblem(send(OrderRequests.order("orders", key, other)), 422, "key-reused");
        assertEquals(1, invoices(HttpOrders.SCOPE, orderId));
        assertEquals(1, reported(HttpOrders.SCOPE, key, InboxOutcome.KEY_REUSED), "KEY_REUSED events");
        assertEquals(0, calls(HttpOrders.SCOPE, other), "the method ran for the other body");
    }

    @Test
    void noKeyIs400WhereRequiredAndRunsWhereOptional() throws Exception {
        String orderId = TestDatabase.newOrderId();
        assertProblem(send(OrderRequests.order("orders", null, orderId)), 400, "key-missing");
        assertEquals(0, calls(HttpOrders.SCOPE, orderId), "calls of the method");

        HttpResponse<String> optional = send(OrderRequests.order("orders/optional-key", null, orderId));
        assertEquals(201, optional.statusCode(), optional.body());
        assertTrue(!replayed(optional));
        assertEquals(1, invoices(HttpOrders.SCOPE, orderId), "invoices");
    }

    @Test
    void aFirstAttemptThatDoesNotCommitStoresNothingAndTheRetryRuns() throws Exception {
        Map<String, Integer> attempts = Map.of("fail", 500, "server-error", 500, "rollback-only", 500);
        for (Map.Entry<String, Integer> attempt : attempts.entrySet()) {
            String key = newKey();
            String orderId = TestDatabase.newOrderId();
            HttpResponse<String> failed = send(OrderRequests.order("orders", key, orderId).behaving(attempt.getKey()));
            assertEquals(attempt.getValue(), failed.statusCode(), attempt.getKey() + ": " + failed.body());
            if (attempt.getKey().equals("rollback-only")) {
                assertProblem(failed, 500, "rolled-back");
            }
            assertEquals(0, markers(HttpOrders.SCOPE, key), attempt.getKey() + ": a marker was stored");
            assertEquals(0, invoices(HttpOrders.SCOPE, orderId), attempt.getKey() + ": invoices");
            InboxOutcome failedAs = attempt.getKey().equals("rollback-only") ? InboxOutcome.ROLLED_BACK
                    : InboxOutcome.FAILURE;
            assertEquals(1, reported(HttpOrders.SCOPE, key, failedAs), attempt.getKey() + ": " + failedAs + " events");

            HttpResponse<String> retry = send(OrderRequests.order("orders", key, orderId));
            assertEquals(201, retry.statusCode(), attempt.getKey() + ": " + retry.body());
            assertTrue(!replayed(retry), attempt.getKey() + ": the retry was a replay");
            assertEquals(1, invoices(HttpOrders.SCOPE, orderId), attempt.getKey() + ": invoices");
            assertEquals(2, calls(HttpOrders.SCOPE, orderId), attempt.getKey() + ": calls of the method");
        }
    }

    @Test
    void aCommitted4xxIsStoredAndReplayed() throws Exception {
        String key = newKey();
        String orderId = TestDatabase.newOrderId();
        HttpResponse<String> rejected = send(OrderRequests.order("orders", key, orderId).behaving("out-of-stock"));
        assertEquals(409, rejected.statusCode(), rejected.body());
        // The retry's behaviour header is not part of the request's fingerprint: the method would now accept it.
        HttpResponse<String> retry = send(OrderRequests.order("orders", key, orderId));
        assertEquals(409, retry.statusCode(), retry.body());
        assertEquals(rejected.body(), retry.body());
        assertTrue(replayed(retry));
        assertEquals(1, invoices(OrderDesk.REJECTED, orderId), "rejections written");
        assertEquals(0, invoices(HttpOrders.SCOPE, orderId), "invoices");
        assertEquals(1, calls(HttpOrders.SCOPE, orderId), "calls of the method");
    }

    @Test
    void badKeysAre400AndStoreNothing() throws Exception {
        String orderId = TestDatabase.newOrderId();
        String first = newKey();
        String second = newKey();
        Map<String, String[]> bad = Map.of(
                "too long", new String[] {"k".repeat(InboxSettings.DEFAULTS.maxMessageIdBytes() + 1)},
                "empty", new String[] {""},
                "empty quoted", new String[] {"\"\""},
                "two headers", new String[] {first, second},
                "two keys in one header", new String[] {first + ", " + second},
                "an open quote", new String[] {"\"" + first});
        for (Map.Entry<String, String[]> key : bad.entrySet()) {
            HttpResponse<String> response = send(OrderRequests.order("orders", null, orderId).withKeys(key.getValue()));
            assertEquals(400, response.statusCode(), key.getKey() + ": " + response.body());
            if (response.headers().firstValue("Content-Type").orElse("").startsWith("application/problem+json")) {
                // A server may drop an empty header, and the key is then missing.
                assertProblem(response, 400, key.getKey().equals("empty") && response.body().contains("key-missing")
                        ? "key-missing" : "key-invalid");
            } else {
                // The server itself refused the request before the application saw it.
                System.out.println(key.getKey() + ": refused by the server: " + response.body());
            }
        }
        // The key's UTF-8 bytes, which Java's HTTP client does not send.
        String raw = OrderRequests.order("orders", null, orderId).sendRaw(application, ("cl\u00e9-" + first)
                .getBytes(StandardCharsets.UTF_8));
        assertTrue(raw.startsWith("HTTP/1.1 400"), "not ASCII: " + raw);
        if (raw.contains("application/problem+json")) {
            assertTrue(raw.contains("urn:txinbox:problem:key-invalid"), "not ASCII: " + raw);
        } else {
            // Payara's Grizzly refuses a header with such bytes itself.
            System.out.println("not ASCII: refused by the server: " + raw.lines().findFirst().orElse(""));
        }
        assertEquals(0, calls(HttpOrders.SCOPE, orderId), "calls of the method");
        // Every key tried, whole or as a part: none has a marker.
        assertEquals(0, TestDatabase.queryLong("SELECT count(*) FROM " + TestDatabase.INBOX
                + " WHERE scope = ? AND (message_id LIKE ? OR message_id LIKE ?)", HttpOrders.SCOPE,
                "%" + first + "%", "%" + second + "%"), "markers");
    }

    /**
     * A resource class without a scope: RESTEasy (WildFly, Open Liberty) makes it a request-scoped CDI bean itself, and
     * the rules apply; Jersey (Payara, GlassFish) creates it outside CDI, and every request is refused before the method
     * runs. Never does the method run without the rules.
     */
    @Test
    void aResourceWithoutAScopeRunsUnderTheRulesOrNotAtAll() throws Exception {
        String orderId = TestDatabase.newOrderId();
        OrderRequests post = new OrderRequests("plain-orders", List.of(newKey()), orderId, null, null);
        HttpResponse<String> first = send(post);
        if (first.statusCode() == 500) {
            assertProblem(first, 500, "not-applied");
            assertEquals(0, calls(PlainOrders.CONSUMER, orderId), "calls of the method");
            System.out.println("a resource without a scope: refused, not a CDI bean here");
        } else {
            assertEquals(201, first.statusCode(), first.body());
            HttpResponse<String> retry = send(post);
            assertEquals(201, retry.statusCode(), retry.body());
            assertTrue(replayed(retry), "the retry ran the method again");
            assertEquals(1, calls(PlainOrders.CONSUMER, orderId), "calls of the method");
            System.out.println("a resource without a scope: a CDI bean here, under the rules");
        }
    }

    @Test
    void aResponseTooLongToStoreRollsBack() throws Exception {
        String key = newKey();
        String orderId = TestDatabase.newOrderId();
        assertProblem(send(OrderRequests.order("orders", key, orderId).behaving("large")), 500, "not-stored");
        assertEquals(0, markers(HttpOrders.SCOPE, key), "markers");
        assertEquals(0, invoices(HttpOrders.SCOPE, orderId), "invoices");
        assertEquals(1, calls(HttpOrders.SCOPE, orderId), "calls of the method");
    }

    @Test
    void aCopyWhileTheFirstIsStillRunningGets409ThenTheStoredResponse() throws Exception {
        String key = newKey();
        String orderId = TestDatabase.newOrderId();
        CompletableFuture<HttpResponse<String>> first = CompletableFuture.supplyAsync(() -> {
            try {
                return send(OrderRequests.order("orders", key, orderId).behaving("hold"));
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        });
        CrashApplication.awaitCrashPoint(orderId);
        long start = System.nanoTime();
        HttpResponse<String> copy = send(OrderRequests.order("orders", key, orderId));
        Duration waited = Duration.ofNanos(System.nanoTime() - start);
        assertProblem(copy, 409, "in-progress");
        assertEquals(1, reported(HttpOrders.SCOPE, key, InboxOutcome.HELD), "HELD events");
        String retryAfter = copy.headers().firstValue("Retry-After").orElse(null);
        assertNotNull(retryAfter, "no Retry-After");
        assertTrue(Long.parseLong(retryAfter) >= 1, retryAfter);
        System.out.println("the copy waited " + waited.toMillis() + " ms, then 409 with Retry-After " + retryAfter);

        CrashApplication.releaseCrashPoint(orderId);
        HttpResponse<String> committed = first.get();
        assertEquals(201, committed.statusCode(), committed.body());
        assertReplayOf(committed, send(OrderRequests.order("orders", key, orderId)));
        assertEquals(1, invoices(HttpOrders.SCOPE, orderId), "invoices");
        assertEquals(1, calls(HttpOrders.SCOPE, orderId), "calls of the method");
    }
}
