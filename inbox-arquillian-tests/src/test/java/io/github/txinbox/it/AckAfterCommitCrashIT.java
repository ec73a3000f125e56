package io.github.txinbox.it;

import static io.github.txinbox.it.app.TestDatabase.INBOX;
import static io.github.txinbox.it.app.TestDatabase.queryLong;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.txinbox.it.app.TestDatabase;
import io.github.txinbox.it.harness.ArtemisSession;
import io.github.txinbox.it.harness.Await;
import io.github.txinbox.it.harness.Broker;
import io.github.txinbox.it.harness.CrashApplication;
import io.github.txinbox.it.harness.Deployments;
import io.github.txinbox.it.harness.Directories;
import io.github.txinbox.it.harness.Messages;
import io.github.txinbox.it.harness.Server;
import io.github.txinbox.it.harness.StandaloneServer;
import io.github.txinbox.it.messaging.Orders;
import io.github.txinbox.it.portable.AckAfterCommitCrashPoints;
import io.github.txinbox.it.portable.AckAfterCommitHandler;
import io.github.txinbox.it.portable.AckAfterCommitListener;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.apache.activemq.artemis.api.core.SimpleString;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The set-up that acknowledges after the commit ({@link AckAfterCommitListener}: a message-driven bean without a
 * transaction calling a {@code @Transactional @Inbox} bean), with the server killed with SIGKILL or halted at each
 * point of a message's life, then started again: in the handler; before the commit (in the transaction's
 * before-completion phase); after the commit and before {@code onMessage} returned, the window the inbox is for (a
 * synchronization of the handler's transaction halts the JVM once it committed, {@link AckAfterCommitCrashPoints}); and the
 * commit failing with the server running, its connection killed. After each, the message comes back by itself and is
 * processed once or recognised as a duplicate; nothing is dead-lettered, nothing is left on the queue, and nothing is
 * prepared anywhere. No step of the test resolves anything: the broker's delivery was never in a transaction.
 *
 * <p>Runs on Payara Micro (against the test JVM's broker), WildFly and Open Liberty (each on its own broker, whose
 * store is kept across the restart).
 */
@Tag("ack-after-commit-crash")
class AckAfterCommitCrashIT {

    private static final Duration BOOT = Duration.ofMinutes(3);
    private static final Duration WAIT = Duration.ofMinutes(2);
    private static final String SCOPE = AckAfterCommitHandler.SCOPE;
    private static final String QUEUE = AckAfterCommitListener.QUEUE;

    /**
     * The one directory of this class's server, made new once per run and kept across the tests (each ends with its
     * queue drained), so that only the first start pays for a new server.
     */
    private static final String DIRECTORY = "ack-after-commit";

    private static boolean directoryIsNew;

    /**
     * The server a test left running, its queue drained: the next test sends its order to it instead of booting
     * another. Each kill ends it, and the restart that follows is a new server on the same directory.
     */
    private static StandaloneServer running;

    /** Returns the running server of this run's kind, started by hand so that the test can kill it. */
    private static StandaloneServer server() throws Exception {
        if (running != null) {
            return running;
        }
        if (!directoryIsNew) {
            Directories.delete(Path.of(System.getProperty("txinbox.it.workDir"), "killed", DIRECTORY));
            directoryIsNew = true;
        }
        running = StandaloneServer.start(DIRECTORY,
                Deployments.withMessaging(Deployments.war(AckAfterCommitCrashIT.class)), BOOT);
        return running;
    }

    /** Kills the running server (a halted one is already gone), so that the next {@link #server()} starts it again. */
    private static void kill() {
        StandaloneServer server = running;
        running = null;
        server.kill();
        server.close();
    }

    @AfterAll
    static void stopTheServer() {
        StandaloneServer server = running;
        running = null;
        if (server != null) {
            server.close();
        }
    }

    @BeforeEach
    @AfterEach
    void nothingPrepared() {
        assertEquals(0, TestDatabase.preparedTransactions(), "PostgreSQL holds no prepared transaction");
        if (Server.current().usesTestBroker()) {
            assertEquals(0, Broker.preparedBranches(), "the broker holds no prepared branch");
        }
    }

    private static long decisions(String orderId, String outcome) {
        return TestDatabase.decisions(SCOPE, orderId, outcome);
    }

    private static long invoices(String orderId) {
        return TestDatabase.invoices(SCOPE, orderId);
    }

    private static long calls(String orderId) {
        return TestDatabase.handlerCalls(SCOPE, orderId);
    }

    private static long markers(String orderId) {
        return TestDatabase.markers(INBOX, SCOPE, orderId);
    }

    /**
     * Sends one order that stops the server where its behaviour says, waits until it does, and kills the server (a
     * halted server is already gone).
     */
    private static void sendAndKill(String orderId, String behaviour) throws Exception {
        Messages.of(server().url()).send(QUEUE, Map.of(Orders.ORDER_ID, orderId, Orders.BEHAVIOUR, behaviour), 1);
        CrashApplication.awaitCrashPoint(orderId);
        kill();
    }

    /**
     * Starts the server again and waits until the order's message has been decided as expected and acknowledged; the
     * server runs on, for the next test.
     */
    private static void restartAndDrain(String orderId, String outcome, long decided) throws Exception {
        Messages messages = Messages.of(server().url());
        try {
            Await.until(WAIT, "the redelivery of " + orderId + " to be " + outcome,
                    () -> decisions(orderId, outcome) == decided);
        } catch (AssertionError e) {
            throw new AssertionError(e.getMessage() + "; " + state(messages, orderId), e);
        }
        Await.until(WAIT, "the queue to drain by itself", () -> messages.queued(QUEUE) == 0);
        assertEquals(0, messages.deadLettered(Orders.ORDER_ID, orderId), "the crash used up no delivery");
        // For the record of each leg: the JMSXDeliveryCount each handler call saw, the redelivery's included.
        System.out.println("[ack-after-commit-crash] " + Server.current() + " " + orderId + ": "
                + TestDatabase.deliveries(SCOPE, orderId));
    }

    /** What became of an order, for a failure's message. */
    private static String state(Messages messages, String orderId) {
        return "handler calls: " + TestDatabase.deliveries(SCOPE, orderId) + "; decisions PROCESSED " + decisions(orderId, "PROCESSED") + ", DUPLICATE "
                + decisions(orderId, "DUPLICATE") + ", FAILURE " + decisions(orderId, "FAILURE") + "; queued "
                + messages.queued(QUEUE) + ", dead-lettered " + messages.deadLettered(Orders.ORDER_ID, orderId)
                + (Server.current().usesTestBroker() ? ", delivering " + ArtemisSession.server()
                        .locateQueue(SimpleString.of(QUEUE)).getDeliveringCount() : "");
    }

    @Test
    void killedInTheHandlerTheRedeliveryIsProcessedOnce() throws Exception {
        String orderId = TestDatabase.newOrderId();
        sendAndKill(orderId, "hang");
        assertEquals(0, invoices(orderId), "the invoice was flushed but never committed");
        assertEquals(0, markers(orderId));

        // The first attempt died before the inbox decided: the redelivery's is the one decision.
        restartAndDrain(orderId, "PROCESSED", 1);
        assertEquals(2, calls(orderId), "the redelivery reached the handler");
        assertEquals(1, invoices(orderId));
        assertEquals(1, markers(orderId));
    }

    @Test
    void killedBeforeTheCommitTheRedeliveryIsProcessedOnce() throws Exception {
        String orderId = TestDatabase.newOrderId();
        sendAndKill(orderId, "hang-before-commit");
        // The handler had returned and the inbox had decided; the commit never came, so nothing was reported.
        assertEquals(0, decisions(orderId, "PROCESSED"));
        assertEquals(0, invoices(orderId));
        assertEquals(0, markers(orderId));

        restartAndDrain(orderId, "PROCESSED", 1);
        assertEquals(2, calls(orderId), "the redelivery reached the handler");
        assertEquals(1, invoices(orderId));
        assertEquals(1, markers(orderId));
    }

    @Test
    void haltedAfterTheCommitBeforeTheAcknowledgementTheRedeliveryIsADuplicate() throws Exception {
        String orderId = TestDatabase.newOrderId();
        sendAndKill(orderId, "halt-after-commit");
        // The window was hit: the invoice and the marker are committed, and the broker was never told.
        assertEquals(1, invoices(orderId), "the database had committed when the server halted");
        assertEquals(1, markers(orderId));
        assertEquals(1, calls(orderId));

        restartAndDrain(orderId, "DUPLICATE", 1);
        assertEquals(1, calls(orderId), "the handler ran once");
        // The halt may come before the inbox reported the commit: the events are a record, the table the ledger.
        assertTrue(decisions(orderId, "PROCESSED") <= 1, "reported processed more than once");
        assertEquals(1, invoices(orderId));
        assertEquals(1, markers(orderId));
    }

    @Test
    void theCommitFailsOnAKilledConnectionAndTheRedeliveryIsProcessedOnce() throws Exception {
        String orderId = TestDatabase.newOrderId();
        Messages messages = Messages.of(server().url());
        messages.send(QUEUE, Map.of(Orders.ORDER_ID, orderId, Orders.BEHAVIOUR, "stall-first"), 1);
        CrashApplication.awaitCrashPoint(orderId);
        // The handler waits with its transaction open; its database connection is killed under it.
        long pid = queryLong("SELECT pid FROM " + TestDatabase.SCHEMA + ".handler_stall WHERE order_id = ?",
                orderId);
        assertEquals(1, queryLong("SELECT count(*) FROM pg_stat_activity WHERE pid = ?", (int) pid));
        queryLong("SELECT count(*) FROM (SELECT pg_terminate_backend(?)) t", (int) pid);
        CrashApplication.releaseCrashPoint(orderId);

        Await.until(WAIT, "the redelivery of " + orderId, () -> markers(orderId) == 1);
        Await.until(WAIT, "the queue to drain by itself", () -> messages.queued(QUEUE) == 0);
        assertEquals(0, messages.deadLettered(Orders.ORDER_ID, orderId));
        assertEquals(2, calls(orderId), "the redelivery reached the handler");
        assertEquals(1, invoices(orderId));
        assertEquals(1, markers(orderId));
    }
}
