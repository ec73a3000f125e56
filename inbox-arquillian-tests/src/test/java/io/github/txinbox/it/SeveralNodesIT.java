package io.github.txinbox.it;

import static io.github.txinbox.it.app.TestDatabase.INBOX;
import static io.github.txinbox.it.app.TestDatabase.queryLong;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.txinbox.InboxEvent;
import io.github.txinbox.InboxOutcome;
import io.github.txinbox.ejb.InboxPurger;
import io.github.txinbox.it.aftercommit.AckAfterCommitOrders;
import io.github.txinbox.it.aftercommit.AckAfterCommitOrdersListener;
import io.github.txinbox.it.app.TestDatabase;
import io.github.txinbox.it.harness.Await;
import io.github.txinbox.it.harness.Broker;
import io.github.txinbox.it.harness.CrashApplication;
import io.github.txinbox.it.harness.Deployments;
import io.github.txinbox.it.harness.PersistentBroker;
import io.github.txinbox.it.harness.Server;
import io.github.txinbox.it.harness.StandaloneServer;
import io.github.txinbox.it.messaging.Orders;
import io.github.txinbox.it.messaging.OrdersListener;
import jakarta.ejb.EJB;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.servlet.annotation.WebServlet;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;
import org.apache.activemq.artemis.api.core.SimpleString;
import org.apache.activemq.artemis.core.server.Queue;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Scaling out: two Payara Micro nodes with the same application consume one queue of one broker (persistent, as in
 * production) against one PostgreSQL database and one inbox table, with no cluster between them ({@code --nocluster},
 * Hazelcast off). Runs on the Payara Micro 6 legs, with the leg's datasource: XA, or a plain one
 * ({@code -Dit.datasource=local}).
 *
 * <p>Each node is set up as {@link CrashApplication} sets up a server that may crash: a transaction log of its own that
 * survives a restart, automatic recovery, the datasource a JDBC resource of the server. Each node's transaction
 * manager also has a name of its own ({@code xa-servername}): Payara's recovery takes as its own every prepared
 * database branch whose Xid's branch qualifier starts with its name, and the default name is built from the host's
 * ({@code <host>,server,P100} on Payara Micro), the same for two nodes on one host: a restarted node's recovery could
 * then roll back the other node's prepared branches.
 *
 * <p>Orders: every order is sent {@value #COPIES} times, the copies back to back, so that copies of one order reach
 * both nodes at the same time; all in one transaction, so that both nodes have work queued. Once a quarter of the
 * orders are invoiced, one node is killed with SIGKILL, with orders in flight on it, and started again with its
 * transaction log, as an orchestrator restarts a pod: its recovery ends the database branches it left prepared (XA),
 * which hold their markers' row locks until then. With XA, the broker branches left prepared are rolled back by hand
 * once they stay prepared for {@value #IN_DOUBT_SECONDS} s, as docs/guarantees.md tells an operator to (Payara does
 * not recover a message-driven bean's branch). With a plain datasource the nodes run the set-up that acknowledges
 * after the commit ({@link AckAfterCommitOrdersListener}), and nothing is rolled back by hand: a branch prepared in
 * the broker fails the test. Then every order has exactly one invoice and one marker, nothing is dead-lettered,
 * left queued or left prepared in PostgreSQL, and no order is reported {@code PROCESSED} twice by the nodes'
 * observers of {@link InboxEvent}, which see what committed. Where in a transaction the kill lands is left to chance (the line the test prints says how many
 * handler runs it rolled back and how many branches it left prepared); ServerCrashIT and NonXaServerCrashIT kill a
 * server at each point of the commit on purpose.
 *
 * <p>Purges: with many expired markers, both nodes purge at the same moment; the markers each deleted add up to the
 * expired ones, so none was deleted twice, both deleted some, and no unexpired marker was touched.
 */
@Tag("xa") // the default leg; without XA, run by hand (docs/scaling.md)
@Tag("several-nodes") // left out of the ee11 leg to keep CI short
class SeveralNodesIT {

    private static final int ORDERS = 200;
    private static final int COPIES = 3;
    private static final int IN_DOUBT_SECONDS = 10;
    private static final int EXPIRED = 10_000;
    private static final int FRESH = 100;
    private static final int PURGE_BATCH = 100;
    private static final int RETENTION_DAYS = 365;
    private static final String NODE_PROPERTY = "txinbox.it.node";
    private static final List<String> NODES = List.of("node-a", "node-b");
    private static final String KILLED = "node-b";
    private static final HttpClient HTTP = HttpClient.newHttpClient();

    private static Path work;
    private static Path war;
    private static PersistentBroker broker;
    private static final Map<String, StandaloneServer> servers = new LinkedHashMap<>();

    /**
     * Records the inbox's {@code PROCESSED} and {@code DUPLICATE} outcomes on this node, which the inbox reports once
     * they committed, on a connection of its own. A node killed between a commit and its event (or an XA branch its
     * recovery commits) leaves that outcome out: the events are a record, not the ledger.
     */
    @ApplicationScoped
    public static class NodeLog {

        void record(@Observes InboxEvent event) {
            if (event.outcome() == InboxOutcome.PROCESSED || event.outcome() == InboxOutcome.DUPLICATE) {
                TestDatabase.update("INSERT INTO " + TestDatabase.SCHEMA
                        + ".node_decision (node, order_id, outcome) VALUES (?, ?, ?)",
                        System.getProperty(NODE_PROPERTY), event.messageId(), event.outcome().name());
            }
        }
    }

    /** The node's purge, as an application would run it from its timer; GET answers the node's name. */
    @WebServlet("/purge")
    public static class PurgeServlet extends HttpServlet {

        @EJB
        InboxPurger purger;

        @Override
        protected void doGet(HttpServletRequest request, HttpServletResponse response) throws IOException {
            response.getWriter().print(System.getProperty(NODE_PROPERTY));
        }

        @Override
        protected void doPost(HttpServletRequest request, HttpServletResponse response) throws IOException {
            long deleted = purger.purgeExpired(Duration.ofDays(RETENTION_DAYS),
                    Integer.parseInt(request.getParameter("batchSize")));
            response.getWriter().print(deleted);
        }
    }

    @BeforeAll
    static void startTwoNodes() throws Exception {
        work = Path.of(System.getProperty("txinbox.it.workDir"), "several-nodes");
        Files.createDirectories(work);
        war = Deployments.export(Deployments.withPersistenceXml(
                Server.nonXa()
                        ? Deployments.war(SeveralNodesIT.class, Orders.class, AckAfterCommitOrdersListener.class,
                                AckAfterCommitOrders.class)
                        : Deployments.war(SeveralNodesIT.class, Orders.class, OrdersListener.class),
                "crash-persistence.xml"));
        broker = PersistentBroker.start(work.resolve("artemis"));
        // One after the other: two servers booting at once could both pick the same free HTTP port.
        for (String node : NODES) {
            CrashApplication.freshDirectory(directory(node));
            servers.put(node, start(node));
        }
    }

    @AfterAll
    static void stopTheNodes() throws Exception {
        for (StandaloneServer server : servers.values()) {
            server.close();
        }
        if (broker != null) {
            broker.close();
        }
    }

    private static String directory(String node) {
        return "several-nodes-" + node;
    }

    /** Starts a node with its own transaction log and name, and checks that it answers with its name. */
    private static StandaloneServer start(String node) throws Exception {
        Path properties = Files.writeString(work.resolve(node + ".properties"), NODE_PROPERTY + "=" + node + "\n");
        StandaloneServer server = CrashApplication.start(war, directory(node), !Server.nonXa(),
                Integer.toString(broker.port()),
                List.of("set configs.config.server-config.transaction-service.property.xa-servername=" + node),
                List.of("--systemProperties", properties.toString()));
        assertEquals(node, call(HttpRequest.newBuilder(purgeUri(server, "")).GET()), server.output());
        return server;
    }

    private static URI purgeUri(StandaloneServer server, String query) {
        return URI.create("http://127.0.0.1:" + server.port() + "/" + SeveralNodesIT.class.getSimpleName()
                + "/purge" + query);
    }

    private static String call(HttpRequest.Builder request) throws Exception {
        HttpResponse<String> response = HTTP.send(request.timeout(Duration.ofSeconds(120)).build(),
                HttpResponse.BodyHandlers.ofString());
        assertEquals(200, response.statusCode(), response.body());
        return response.body();
    }

    private static long purge(String node) throws Exception {
        StandaloneServer server = servers.get(node);
        return Long.parseLong(call(HttpRequest.newBuilder(purgeUri(server, "?batchSize=" + PURGE_BATCH))
                .POST(HttpRequest.BodyPublishers.noBody())));
    }

    private static long invoiced(String batch, String select) {
        return queryLong("SELECT " + select + " FROM " + TestDatabase.SCHEMA + ".invoice WHERE consumer = 'orders' "
                + "AND orderid LIKE ?", batch + "-%");
    }

    private static long decisions(String batch, String node, InboxOutcome outcome) {
        return queryLong("SELECT count(*) FROM " + TestDatabase.SCHEMA + ".node_decision WHERE order_id LIKE ? "
                + "AND node = ? AND outcome = ?", batch + "-%", node, outcome.name());
    }

    private static long decisions(String batch, InboxOutcome outcome) {
        return NODES.stream().mapToLong(node -> decisions(batch, node, outcome)).sum();
    }

    @Test
    void copiesOnBothNodesAndANodeKilledInTheMiddleEveryOrderHasExactlyOneEffect() throws Exception {
        assertEquals(0, TestDatabase.preparedTransactions(), "a transaction was left prepared before the test");
        String batch = "nodes-" + UUID.randomUUID();
        List<Map<String, String>> messages = new ArrayList<>();
        for (int i = 0; i < ORDERS; i++) {
            for (int copy = 0; copy < COPIES; copy++) {
                messages.add(Map.of(Orders.ORDER_ID, batch + "-" + i));
            }
        }
        long started = System.nanoTime();
        // All at once, so that both nodes are busy when one of them dies.
        Broker.sendInOneTransaction(broker.url(), "orders", messages);
        Await.until(Duration.ofSeconds(120), "a quarter of the orders to be invoiced",
                () -> invoiced(batch, "count(*)") >= ORDERS / 4);
        Queue queue = broker.server().locateQueue(SimpleString.of("orders"));
        long deliveredAtKill = queue.getDeliveringCount();
        servers.get(KILLED).kill();
        long invoicedAtKill = invoiced(batch, "count(*)");
        long preparedAtKill = TestDatabase.preparedTransactions();
        assertTrue(invoicedAtKill < ORDERS, "every order was invoiced before the kill: none was in flight");

        servers.put(KILLED, start(KILLED));
        BooleanSupplier accounted = () -> invoiced(batch, "count(DISTINCT orderid)") + broker.deadLetters() >= ORDERS
                && TestDatabase.preparedTransactions() == 0;
        Supplier<String> state = () -> invoiced(batch, "count(DISTINCT orderid)") + " of " + ORDERS
                + " orders invoiced, " + TestDatabase.preparedTransactions() + " transactions prepared in PostgreSQL";
        int rolledBack = 0;
        if (Server.nonXa()) {
            // Acknowledged after the commit: nothing is ever prepared, and nothing is rolled back by hand.
            broker.awaitDrainedByItself("orders", accounted, Duration.ofSeconds(180), state);
        } else {
            rolledBack = broker.settle("orders", accounted, Duration.ofSeconds(IN_DOUBT_SECONDS),
                    Duration.ofSeconds(180), state);
        }
        long seconds = TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - started);

        long onBothNodes = queryLong("SELECT count(*) FROM (SELECT order_id FROM " + TestDatabase.SCHEMA
                + ".node_decision WHERE order_id LIKE ? GROUP BY order_id HAVING count(DISTINCT node) = 2) AS o",
                batch + "-%");
        // Handler runs are recorded outside the transaction: those beyond one per order rolled back, in flight on the
        // killed node.
        long rolledBackRuns = queryLong("SELECT count(*) FROM " + TestDatabase.SCHEMA + ".handler_call "
                + "WHERE consumer = 'orders' AND order_id LIKE ?", batch + "-%") - ORDERS;
        StringBuilder perNode = new StringBuilder();
        for (String node : NODES) {
            perNode.append(node).append(' ').append(decisions(batch, node, InboxOutcome.PROCESSED))
                    .append(" processed, ").append(decisions(batch, node, InboxOutcome.DUPLICATE))
                    .append(" duplicates; ");
        }
        System.out.printf("several nodes (%s): %d orders x %d copies; %s killed at %d invoiced, %d "
                        + "messages delivered to the nodes and not acknowledged (%d transactions prepared in "
                        + "PostgreSQL), restarted with its log; %d handler runs rolled back; committed decisions: "
                        + "%scopies of %d orders decided on both nodes; %d broker branches rolled back by hand; "
                        + "settled in %d s%n",
                Server.nonXa() ? "plain datasource, acknowledged after the commit" : "XA", ORDERS, COPIES, KILLED, invoicedAtKill, deliveredAtKill,
                preparedAtKill, rolledBackRuns, perNode, onBothNodes, rolledBack, seconds);

        assertEquals(ORDERS, invoiced(batch, "count(*)"), "an order was invoiced twice, or not at all");
        assertEquals(ORDERS, invoiced(batch, "count(DISTINCT orderid)"));
        assertEquals(ORDERS, queryLong("SELECT count(*) FROM " + INBOX + " WHERE scope = ? AND message_id LIKE ?",
                Server.nonXa() ? AckAfterCommitOrders.SCOPE : OrdersListener.class.getName(), batch + "-%"),
                "one marker per order");
        assertEquals(0, broker.deadLetters(), "an order was dead-lettered");
        assertEquals(0, queue.getMessageCount() + queue.getDeliveringCount() + queue.getScheduledCount(),
                "the queue is empty");
        assertEquals(0, broker.server().getResourceManager().getPreparedTransactions().size(),
                "a branch is prepared in the broker");
        assertEquals(0, TestDatabase.preparedTransactions(), "a transaction is prepared in PostgreSQL");
        assertEquals(0, queryLong("SELECT count(*) FROM (SELECT order_id FROM " + TestDatabase.SCHEMA
                + ".node_decision WHERE order_id LIKE ? AND outcome = 'PROCESSED' GROUP BY order_id "
                + "HAVING count(*) > 1) AS o", batch + "-%"), "an order was reported processed twice");
        // Only a kill between a commit and its event leaves a committed outcome unreported.
        assertTrue(decisions(batch, InboxOutcome.PROCESSED) >= ORDERS - deliveredAtKill,
                "more processed orders unreported than messages in flight at the kill");
        for (String node : NODES) {
            assertTrue(decisions(batch, node, InboxOutcome.PROCESSED) + decisions(batch, node, InboxOutcome.DUPLICATE)
                    > 0, node + " consumed nothing");
        }
        assertTrue(onBothNodes > 0, "no order had copies decided on both nodes");
    }

    @Test
    void purgesOnBothNodesAtOnceShareTheWorkAndDeleteEachExpiredMarkerOnce() throws Exception {
        // The first call of each node's servlet and purger, so that both start at once below; it also deletes what
        // other tests left expired.
        for (String node : NODES) {
            purge(node);
        }
        String scope = "several-nodes-" + UUID.randomUUID();
        TestDatabase.insertExpiredMarkers(scope, EXPIRED);
        TestDatabase.insertFreshMarkers(scope, FRESH);
        String expiredMarkers = "SELECT count(*) FROM " + INBOX + " WHERE processed_at < now() - interval '"
                + RETENTION_DAYS + " days'";
        long expired = queryLong(expiredMarkers);
        long markersBefore = queryLong("SELECT count(*) FROM " + INBOX);

        // Every DELETE on the inbox sleeps 20 ms first: a purge lasts long enough (2 s alone) for the two to overlap
        // on a busy machine too.
        TestDatabase.slowDeletes(0.02);
        Map<String, Long> deleted = new LinkedHashMap<>();
        long started = System.nanoTime();
        ExecutorService callers = Executors.newFixedThreadPool(NODES.size());
        try {
            CountDownLatch go = new CountDownLatch(1);
            Map<String, Future<Long>> purges = new LinkedHashMap<>();
            for (String node : NODES) {
                purges.put(node, callers.submit(() -> {
                    go.await();
                    return purge(node);
                }));
            }
            go.countDown();
            for (Map.Entry<String, Future<Long>> purge : purges.entrySet()) {
                deleted.put(purge.getKey(), purge.getValue().get(120, TimeUnit.SECONDS));
            }
        } finally {
            callers.shutdownNow();
            TestDatabase.fastDeletes();
        }
        long millis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started);
        System.out.printf("several nodes, purges at once: %d expired markers, deleted %s, in %d ms%n", expired,
                deleted, millis);

        assertEquals(expired, deleted.values().stream().mapToLong(Long::longValue).sum(),
                "the markers each node deleted do not add up to the expired ones: " + deleted);
        assertEquals(0, queryLong(expiredMarkers), "an expired marker is left");
        assertEquals(FRESH, queryLong("SELECT count(*) FROM " + INBOX + " WHERE scope = ?", scope),
                "the unexpired markers of the scope are all there");
        assertEquals(markersBefore - expired, queryLong("SELECT count(*) FROM " + INBOX),
                "only expired markers were deleted");
        for (String node : NODES) {
            assertTrue(deleted.get(node) > 0, "the purges did not share the work: " + deleted);
        }
    }
}
