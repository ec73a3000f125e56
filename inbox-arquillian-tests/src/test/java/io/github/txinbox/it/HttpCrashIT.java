package io.github.txinbox.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.github.txinbox.it.app.TestDatabase;
import io.github.txinbox.it.crash.CrashPoint;
import io.github.txinbox.it.harness.CrashApplication;
import io.github.txinbox.it.harness.Deployments;
import io.github.txinbox.it.harness.Directories;
import io.github.txinbox.it.harness.OrderRequests;
import io.github.txinbox.it.harness.Server;
import io.github.txinbox.it.harness.StandaloneServer;
import io.github.txinbox.it.http.HangAfterCommit;
import io.github.txinbox.it.http.HttpOrders;
import java.io.IOException;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The server killed with SIGKILL after an {@code @Idempotent} request committed and before its response reached the
 * client: the client gets no response; the retry, on the restarted server, gets the stored response, and the order
 * has one effect. Runs the server by hand ({@link StandaloneServer}) on Payara Micro, WildFly and Open Liberty.
 */
@Tag("http-crash")
class HttpCrashIT {

    private static final Duration BOOT = Duration.ofMinutes(3);
    private static final String NAME = "http-crash";

    @Test
    void killedAfterTheCommitBeforeTheResponseTheRetryGetsTheStoredResponse() throws Exception {
        assumeTrue(Server.current().startsStandalone(), Server.current() + " is not started by hand in these tests");
        WebArchive war = Deployments.war(HttpCrashIT.class, CrashPoint.class, CrashPoint.Phase.class,
                        OrderRequests.class)
                .addPackage(HttpOrders.class.getPackage());
        Directories.delete(Path.of(System.getProperty("txinbox.it.workDir"), "killed", NAME));
        String key = UUID.randomUUID().toString();
        String orderId = TestDatabase.newOrderId();
        OrderRequests order = OrderRequests.order("orders", key, orderId);
        try (StandaloneServer server = StandaloneServer.start(NAME, war, BOOT)) {
            CompletableFuture<HttpResponse<String>> first = CompletableFuture.supplyAsync(() -> {
                try {
                    return order.behaving(HangAfterCommit.BEHAVIOUR).send(server.url());
                } catch (IOException e) {
                    throw new java.io.UncheckedIOException(e);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new IllegalStateException(e);
                }
            });
            CrashApplication.awaitCrashPoint(orderId);
            // Committed, and the response not yet written.
            assertEquals(1, TestDatabase.invoices(HttpOrders.SCOPE, orderId), "invoices before the kill");
            assertEquals(1, TestDatabase.markers(TestDatabase.INBOX, HttpOrders.SCOPE, key), "markers before the kill");
            server.kill();
            ExecutionException lost = assertThrows(ExecutionException.class, () -> first.get(1, TimeUnit.MINUTES),
                    "the client got a response");
            System.out.println("the client's request ended with " + lost.getCause());
        }
        try (StandaloneServer server = StandaloneServer.start(NAME, war, BOOT)) {
            HttpResponse<String> retry = order.send(server.url());
            assertEquals(201, retry.statusCode(), retry.body());
            assertTrue(OrderRequests.replayed(retry), "the retry was not a replay: " + retry.headers().map());
            String invoiceId = TestDatabase.queryString("SELECT id FROM " + TestDatabase.SCHEMA
                    + ".invoice WHERE consumer = ? AND orderid = ?", HttpOrders.SCOPE, orderId);
            assertTrue(retry.body().contains(invoiceId), "the stored response names the committed invoice "
                    + invoiceId + ": " + retry.body());
            assertTrue(retry.headers().firstValue("Location").orElse("").endsWith("/orders/" + invoiceId),
                    retry.headers().map().toString());
        }
        assertEquals(1, TestDatabase.invoices(HttpOrders.SCOPE, orderId), "invoices");
        assertEquals(1, TestDatabase.handlerCalls(HttpOrders.SCOPE, orderId), "calls of the method");
    }
}
