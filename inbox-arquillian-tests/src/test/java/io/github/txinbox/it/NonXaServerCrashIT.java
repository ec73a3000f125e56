package io.github.txinbox.it;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.github.txinbox.it.app.TestDatabase;
import io.github.txinbox.it.crash.CrashHandler;
import io.github.txinbox.it.harness.ArtemisSession;
import io.github.txinbox.it.harness.Await;
import io.github.txinbox.it.harness.Broker;
import io.github.txinbox.it.harness.CommitGate;
import io.github.txinbox.it.harness.CrashApplication;
import io.github.txinbox.it.harness.StandaloneServer;
import io.github.txinbox.it.messaging.Orders;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.activemq.artemis.core.server.Queue;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The non-XA set-up killed with SIGKILL (kill -9): a plain PostgreSQL datasource, the one one-phase resource of the
 * message's JTA transaction beside the broker's XA branch (Payara's last agent optimization), on a PostgreSQL at
 * {@code max_prepared_transactions = 0}. Payara commits such a transaction in this order: it prepares the broker's
 * branch, commits the database, logs its decision, and commits the broker's branch. The server is killed at three
 * points and started again with the same transaction log:
 * <ol>
 *     <li>in the handler, before the commit began;</li>
 *     <li>after the database's commit, before the broker learnt of it: the broker holds back the second phase of
 *         its branch, the test kills the server there ({@link CommitGate});</li>
 *     <li>before the database's commit: the broker's branch prepared, the database's work not yet committed
 *         (a crash point enlisted after both, blocking in its prepare).</li>
 * </ol>
 * Each time the order has exactly one effect, nothing is lost, and PostgreSQL holds no prepared transaction. Where the
 * broker's branch was prepared, Payara does not end it after the restart (it recovers no inbound branch of a
 * message-driven bean); the broker's administrator rolls it back, and the inbox takes care of the rest.
 */
@Tag("nonxa")
@Tag("older-setup") // left out of CI: mvn -B verify -Dit.datasource=local -Dit.test=NonXaServerCrashIT
class NonXaServerCrashIT {

    private static final Duration DRAIN = Duration.ofSeconds(60);

    private static Path war;

    @BeforeAll
    static void exportWar() throws Exception {
        war = CrashApplication.exportWar(NonXaServerCrashIT.class);
    }

    @BeforeEach
    void nothingLeftPrepared() {
        assertEquals(0, TestDatabase.preparedTransactions(), "a transaction was left prepared before the test");
        assertEquals(0, Broker.preparedBranches(), "a branch was left prepared in the broker before the test");
        assertEquals(0, TestDatabase.queryLong("SELECT current_setting('max_prepared_transactions')::int"),
                "the non-XA leg runs PostgreSQL at max_prepared_transactions = 0");
    }

    private static StandaloneServer start(String name) throws Exception {
        return CrashApplication.start(war, name, false);
    }

    private static long decisions(String messageId, String outcome) {
        return TestDatabase.decisions(CrashHandler.SCOPE, messageId, outcome);
    }

    private static int deadLettered(String orderId) {
        return Broker.count(ArtemisSession.DEAD_LETTER_QUEUE, Orders.ORDER_ID + " = '" + orderId + "'");
    }

    /** After a restart, a while: the broker's branch is still prepared and holds the message; nobody ended it. */
    private static void assertTheBrokersBranchIsStillPrepared(String orderId) throws InterruptedException {
        Thread.sleep(5_000);
        assertEquals(1, Broker.preparedBranches(), "the broker's branch is still prepared");
        assertEquals(1, CrashApplication.crashQueue().getDeliveringCount(), "the prepared branch holds the message");
        assertEquals(1, CrashApplication.handlerCalls(orderId), "the message was not redelivered while its branch was prepared");
    }

    private static void assertNothingLostNothingPrepared(String orderId) {
        Queue queue = CrashApplication.crashQueue();
        assertEquals(0, queue.getMessageCount() + queue.getDeliveringCount() + queue.getScheduledCount(),
                "the queue is empty");
        assertEquals(0, deadLettered(orderId), "the order did not end in the dead-letter queue");
        assertEquals(0, Broker.preparedBranches());
        assertEquals(0, TestDatabase.preparedTransactions(), "PostgreSQL holds no prepared transaction");
    }

    @Test
    void killedInTheHandlerTheRestartedServerProcessesTheMessageOnce() throws Exception {
        CrashApplication.freshDirectory("nonxa-handler");
        String orderId = "crash-" + UUID.randomUUID();
        String messageId = CrashApplication.sendAndKill(war, "nonxa-handler", false, orderId, "hang");
        // Nothing was prepared anywhere: the database rolled back when the connection dropped, and the broker put
        // the message back when the consumer's connection did.
        Await.until(Duration.ofSeconds(30), "the broker to take the message back",
                () -> CrashApplication.crashQueue().getMessageCount() == 1
                        && CrashApplication.crashQueue().getDeliveringCount() == 0);
        assertEquals(0, CrashApplication.invoices(orderId), "the invoice was flushed but never committed");
        assertEquals(0, CrashApplication.markers(messageId));
        assertEquals(0, Broker.preparedBranches());

        try (StandaloneServer server = start("nonxa-handler")) {
            Broker.awaitDrained("crash", DRAIN);
        }
        assertEquals(2, CrashApplication.handlerCalls(orderId), "the redelivery reached the handler");
        assertEquals(1, CrashApplication.invoices(orderId));
        assertEquals(1, CrashApplication.markers(messageId));
        assertEquals(1, decisions(messageId, "PROCESSED"));
        assertNothingLostNothingPrepared(orderId);
    }

    @Test
    void killedAfterTheDatabaseCommittedTheRedeliveryIsADuplicate() throws Exception {
        CrashApplication.freshDirectory("nonxa-committed");
        String orderId = "crash-" + UUID.randomUUID();
        String messageId;
        AtomicLong invoicedAtTheGate = new AtomicLong(-1);
        AtomicLong preparedInBrokerAtTheGate = new AtomicLong(-1);
        try (StandaloneServer server = start("nonxa-committed")) {
            try (CommitGate gate = CommitGate.install(xid -> {
                // The broker has the second phase of its branch in hand and has not carried it out: the database's
                // commit is already done. The server dies here.
                invoicedAtTheGate.set(CrashApplication.invoices(orderId));
                preparedInBrokerAtTheGate.set(Broker.preparedBranches());
                server.kill();
            })) {
                messageId = Broker.send("crash", Map.of(Orders.ORDER_ID, orderId));
                gate.awaitReached(Duration.ofSeconds(60));
            }
        }
        assertEquals(1, invoicedAtTheGate.get(), "the database had committed when the broker's commit arrived");
        assertEquals(1, preparedInBrokerAtTheGate.get(), "the broker's branch was prepared");
        assertEquals(1, CrashApplication.markers(messageId), "the marker is committed");
        assertEquals(1, Broker.preparedBranches(), "the broker never committed its branch");
        assertEquals(0, TestDatabase.preparedTransactions());

        try (StandaloneServer server = start("nonxa-committed")) {
            assertTheBrokersBranchIsStillPrepared(orderId);
            Broker.rollBackThePreparedBranch(); // what the broker's administrator does
            // The message comes back; the inbox finds its marker and the handler does not run again.
            Await.until(DRAIN, "the redelivery to be recognised",
                    () -> decisions(messageId, "DUPLICATE") == 1);
            Broker.awaitDrained("crash", DRAIN);
        }
        assertEquals(1, CrashApplication.handlerCalls(orderId), "the handler ran once");
        assertEquals(1, CrashApplication.invoices(orderId));
        assertEquals(1, CrashApplication.markers(messageId));
        assertEquals(1, decisions(messageId, "PROCESSED"));
        assertNothingLostNothingPrepared(orderId);
    }

    @Test
    void killedBeforeTheDatabaseCommittedTheRedeliveryIsProcessedOnce() throws Exception {
        CrashApplication.freshDirectory("nonxa-before-commit");
        String orderId = "crash-" + UUID.randomUUID();
        String messageId = CrashApplication.sendAndKill(war, "nonxa-before-commit", false, orderId, "hang-in-prepare");
        // The broker's branch is prepared; the database's work was never committed and died with the connection.
        assertEquals(1, Broker.preparedBranches(), "the broker's branch is prepared");
        assertEquals(0, CrashApplication.invoices(orderId));
        assertEquals(0, CrashApplication.markers(messageId));
        assertEquals(0, TestDatabase.preparedTransactions());

        try (StandaloneServer server = start("nonxa-before-commit")) {
            assertTheBrokersBranchIsStillPrepared(orderId);
            Broker.rollBackThePreparedBranch(); // what the broker's administrator does
            Broker.awaitDrained("crash", DRAIN);
        }
        assertEquals(2, CrashApplication.handlerCalls(orderId), "the redelivery reached the handler");
        assertEquals(1, CrashApplication.invoices(orderId));
        assertEquals(1, CrashApplication.markers(messageId));
        // Both attempts claimed the message (the inbox decides when the method returns, before the commit); only the
        // second committed.
        assertEquals(2, decisions(messageId, "PROCESSED"));
        assertNothingLostNothingPrepared(orderId);
    }
}
