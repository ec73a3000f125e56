package io.github.txinbox.it;

import static io.github.txinbox.it.app.TestDatabase.newOrderId;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.txinbox.InboxOutcome;
import io.github.txinbox.InboxResult;
import io.github.txinbox.InboxRetryException;
import io.github.txinbox.InboxSettings;
import io.github.txinbox.it.crash.CrashPoint;
import io.github.txinbox.it.harness.Await;
import io.github.txinbox.it.harness.CrashApplication;
import io.github.txinbox.it.harness.Deployments;
import io.github.txinbox.it.harness.HeldMarker;
import io.github.txinbox.it.harness.OrderRequests;
import io.github.txinbox.it.http.HttpOrders;
import io.github.txinbox.it.messaging.OrderService;
import io.github.txinbox.it.messaging.Orders;
import jakarta.ejb.EJB;
import jakarta.ejb.EJBException;
import jakarta.inject.Inject;
import jakarta.servlet.annotation.WebServlet;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.net.URI;
import java.net.URL;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import org.eclipse.microprofile.metrics.MetricID;
import org.eclipse.microprofile.metrics.MetricRegistry;
import org.eclipse.microprofile.metrics.Tag;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.container.test.api.RunAsClient;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.arquillian.test.api.ArquillianResource;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Every decision of the interceptor is counted and timed in the application's MicroProfile Metrics registry, under
 * the names docs/inbox.md documents, and published at Payara's {@code /metrics} endpoint.
 */
@ExtendWith(ArquillianExtension.class)
class InboxMetricsIT {

    private static final String SCOPE = OrderService.DIRECT_SCOPE;

    @Deployment
    static WebArchive deployment() {
        return Deployments.withSettings(Deployments.war(InboxMetricsIT.class, HeldMarker.class, CrashPoint.class,
                        CrashPoint.Phase.class).addPackage(Orders.class.getPackage())
                        .addPackage(HttpOrders.class.getPackage()),
                InboxSettings.CLAIM_MAX_WAIT + "=" + HeldMarker.CLAIM_MAX_WAIT);
    }

    @EJB
    OrderService service;

    @Inject
    MetricRegistry registry;

    // The documented names, spelt out: a renamed metric or tag must fail here.
    private static final String MESSAGES = "txinbox.messages";
    private static final String DURATION = "txinbox.duration";

    private static MetricID id(String name, String outcome) {
        return new MetricID(name, new Tag("scope", SCOPE), new Tag("outcome", outcome));
    }

    private long count(String outcome) {
        var counter = registry.getCounters().get(id(MESSAGES, outcome));
        return counter == null ? 0 : counter.getCount();
    }

    private long timed(String outcome) {
        var timer = registry.getTimers().get(id(DURATION, outcome));
        return timer == null ? 0 : timer.getCount();
    }

    /** Counts and timer counts of every outcome, so that a test can check that only the expected ones moved. */
    private Map<String, Long> snapshot() {
        Map<String, Long> values = new TreeMap<>();
        for (String outcome : new String[] {"processed", "duplicate", "skipped", "retry", "held", "failure",
            "missing_id", "rolled_back"}) {
            values.put(outcome, count(outcome));
            values.put(outcome + " timed", timed(outcome));
        }
        return values;
    }

    private void assertMoved(Map<String, Long> before, String outcome, long by) {
        Map<String, Long> expected = new TreeMap<>(before);
        expected.merge(outcome, by, Long::sum);
        expected.merge(outcome + " timed", by, Long::sum);
        assertEquals(expected, snapshot());
    }


    @Test
    void processedAndDuplicateAreCounted() {
        String orderId = newOrderId();
        Map<String, Long> before = snapshot();
        assertEquals(InboxResult.processed(), service.place(orderId, "process"));
        assertMoved(before, "processed", 1);
        before = snapshot();
        assertEquals(InboxResult.duplicate(), service.place(orderId, "process"));
        assertEquals(InboxResult.duplicate(), service.place(orderId, "process"));
        assertMoved(before, "duplicate", 2);
    }

    @Test
    void skippedIsCounted() {
        Map<String, Long> before = snapshot();
        service.place(newOrderId(), "skip");
        assertMoved(before, "skipped", 1);
    }

    @Test
    void retriesReturnedAndThrownAreCounted() {
        Map<String, Long> before = snapshot();
        // The bean's own transaction: the retry is thrown whether returned or thrown.
        assertThrows(EJBException.class, () -> service.place(newOrderId(), "retry"));
        assertThrows(EJBException.class, () -> service.place(newOrderId(), "retry-exception"));
        assertMoved(before, "retry", 2);
    }

    @Test
    void aCallThatReturnedButDidNotCommitIsCountedRolledBackNotProcessed() {
        Map<String, Long> before = snapshot();
        assertThrows(EJBException.class, () -> service.place(newOrderId(), "rollback-only"));
        assertMoved(before, "rolled_back", 1);
    }

    @Test
    void aHeldMarkerIsCountedApartFromARetry() {
        String orderId = newOrderId();
        Map<String, Long> before = snapshot();
        try (HeldMarker held = HeldMarker.hold(SCOPE, "metrics", orderId)) {
            EJBException e = assertThrows(EJBException.class, () -> service.place(orderId, "process"));
            assertTrue(e.getCause() instanceof InboxRetryException, "the caller is told to retry: " + e.getCause());
        }
        assertMoved(before, "held", 1);
        var timer = registry.getTimers().get(id(DURATION, "held"));
        assertTrue(timer.getSnapshot().getMax() >= HeldMarker.CLAIM_MAX_WAIT.toNanos(),
                "the held call waited the bound; the longest recorded is " + timer.getSnapshot().getMax() + " ns");
    }

    @Test
    void aFailureIsCounted() {
        Map<String, Long> before = snapshot();
        assertThrows(EJBException.class, () -> service.place(newOrderId(), "fail"));
        assertMoved(before, "failure", 1);
    }

    @Test
    void aMissingIdIsCounted() {
        Map<String, Long> before = snapshot();
        assertThrows(EJBException.class, () -> service.place(null, "process"));
        assertMoved(before, "missing_id", 1);
    }

    @Test
    void theTimerHoldsTheHandlersTime() {
        service.place(newOrderId(), "slow");
        var timer = registry.getTimers().get(id(DURATION, "processed"));
        assertTrue(timer.getElapsedTime().compareTo(Duration.ofMillis(OrderService.SLOW_MILLIS)) >= 0,
                "the slow call took " + OrderService.SLOW_MILLIS + " ms; the timer's total is "
                        + timer.getElapsedTime());
        assertTrue(timer.getSnapshot().getMax() >= Duration.ofMillis(OrderService.SLOW_MILLIS).toNanos(),
                "the longest call recorded is " + timer.getSnapshot().getMax() + " ns");
    }

    /** Places orders for the client-side test, which cannot call the bean itself. */
    @WebServlet("/place")
    public static class PlaceServlet extends HttpServlet {

        private static final long serialVersionUID = 1L;

        @EJB
        transient OrderService service;

        @Override
        protected void doGet(HttpServletRequest request, HttpServletResponse response) throws IOException {
            InboxResult result = service.place(request.getParameter("order"), request.getParameter("behaviour"));
            response.getWriter().print(result.outcome());
        }
    }

    @Test
    @RunAsClient
    void theEndpointPublishesTheDocumentedNames(@ArquillianResource URL application) throws Exception {
        String orderId = newOrderId();
        assertEquals("PROCESSED", get(application, "place?behaviour=process&order=" + orderId));
        assertEquals("DUPLICATE", get(application, "place?behaviour=process&order=" + orderId));
        assertEquals("SKIPPED", get(application, "place?behaviour=skip&order=" + newOrderId()));

        String metrics = get(new URL(application, "/"), "metrics?scope=application");
        for (String outcome : new String[] {"processed", "duplicate", "skipped"}) {
            assertTrue(hasLine(metrics, "txinbox_messages_total{", outcome), metrics);
            assertTrue(hasLine(metrics, "txinbox_duration_seconds_count{", outcome), metrics);
        }
    }

    /**
     * inbox-http's requests are counted under the same names: a first run, a copy answered 409 while it ran, the replay
     * after it committed, and the key sent again with another body (422).
     */
    @Test
    @RunAsClient
    void anHttpReplayA409AndA422AreCounted(@ArquillianResource URL application) throws Exception {
        URL root = new URL(application, "/");
        String[] outcomes = {"processed", "held", "duplicate", "key_reused"};
        Map<String, Long> before = published(root, HttpOrders.SCOPE, outcomes);
        String key = UUID.randomUUID().toString();
        String orderId = newOrderId();
        CompletableFuture<HttpResponse<String>> first = CompletableFuture.supplyAsync(() -> {
            try {
                return OrderRequests.order("orders", key, orderId).behaving("hold").send(application);
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        });
        CrashApplication.awaitCrashPoint(orderId);
        HttpResponse<String> copy = OrderRequests.order("orders", key, orderId).send(application);
        assertEquals(409, copy.statusCode(), copy.body());
        CrashApplication.releaseCrashPoint(orderId);
        assertEquals(201, first.get().statusCode());
        HttpResponse<String> replay = OrderRequests.order("orders", key, orderId).send(application);
        assertTrue(OrderRequests.replayed(replay), replay.headers().map().toString());
        HttpResponse<String> reused = OrderRequests.order("orders", key, newOrderId()).send(application);
        assertEquals(422, reused.statusCode(), reused.body());

        Map<String, Long> expected = new TreeMap<>(before);
        for (String outcome : outcomes) {
            expected.merge(outcome, 1L, Long::sum);
        }
        // A request is counted after its transaction ends, which is after its response is written.
        Await.until(Duration.ofSeconds(10), "the four requests counted",
                () -> expected.equals(published(root, HttpOrders.SCOPE, outcomes)));
    }

    /**
     * The counts {@code txinbox_messages_total} publishes for a scope, by outcome (0 where it has none yet; Payara
     * answers 404 while the application has no metric at all).
     */
    private static Map<String, Long> published(URL root, String scope, String... outcomes) {
        HttpResponse<String> response;
        try {
            response = send(root, "metrics?scope=application");
        } catch (IOException | InterruptedException e) {
            throw new IllegalStateException(e);
        }
        assertTrue(response.statusCode() == 200 || response.statusCode() == 404, response.body());
        String metrics = response.statusCode() == 200 ? response.body() : "";
        Map<String, Long> counts = new TreeMap<>();
        for (String outcome : outcomes) {
            counts.put(outcome, metrics.lines()
                    .filter(line -> line.startsWith("txinbox_messages_total{")
                            && line.contains("outcome=\"" + outcome + "\"") && line.contains("scope=\"" + scope + "\""))
                    .mapToLong(line -> (long) Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1)))
                    .sum());
        }
        return counts;
    }

    private static boolean hasLine(String metrics, String start, String outcome) {
        return metrics.lines().anyMatch(line -> line.startsWith(start) && line.contains("outcome=\"" + outcome + "\"")
                && line.contains("scope=\"" + SCOPE + "\""));
    }

    private static String get(URL base, String path) throws IOException, InterruptedException {
        HttpResponse<String> response = send(base, path);
        assertEquals(200, response.statusCode(), response.uri() + " answered " + response.body());
        return response.body();
    }

    private static HttpResponse<String> send(URL base, String path) throws IOException, InterruptedException {
        return HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(base.toString()).resolve(path))
                .build(), HttpResponse.BodyHandlers.ofString());
    }
}
