package io.github.txinbox.it;

import static io.github.txinbox.it.app.TestDatabase.INBOX;
import static io.github.txinbox.it.app.TestDatabase.queryLong;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.github.txinbox.it.app.TestDatabase;
import io.github.txinbox.it.harness.Await;
import io.github.txinbox.it.harness.CrashApplication;
import io.github.txinbox.it.harness.Deployments;
import io.github.txinbox.it.harness.Directories;
import io.github.txinbox.it.harness.Messages;
import io.github.txinbox.it.harness.Server;
import io.github.txinbox.it.harness.StandaloneServer;
import io.github.txinbox.it.messaging.Orders;
import io.github.txinbox.it.portable.PortableCrashHandler;
import io.github.txinbox.it.portable.PortableCrashListener;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.UUID;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * WildFly or Open Liberty killed with SIGKILL (kill -9) in the middle of a message, then started again on the same
 * broker store and transaction log: in the handler, and (where the test can reach the transaction manager, and the
 * datasource is XA) in the second phase of the commit, after the decision to commit was logged. Runs the server by
 * hand beside Arquillian's ({@link StandaloneServer}); on Payara Micro, {@link ServerCrashIT} shows the same.
 */
@Tag("killed-server")
class KilledServerIT {

    private static final Duration BOOT = Duration.ofMinutes(3);
    private static final Duration WAIT = Duration.ofMinutes(3);

    private static WebArchive war() {
        return Deployments.withMessaging(Deployments.war(KilledServerIT.class));
    }

    private static StandaloneServer freshServer(String name) throws Exception {
        Directories.delete(Path.of(System.getProperty("txinbox.it.workDir"), "killed", name));
        return StandaloneServer.start(name, war(), BOOT);
    }

    private static long invoices(String orderId) {
        return TestDatabase.invoices(PortableCrashHandler.SCOPE, orderId);
    }

    private static long calls(String orderId) {
        return TestDatabase.handlerCalls(PortableCrashHandler.SCOPE, orderId);
    }

    private static long markers() {
        return queryLong("SELECT count(*) FROM " + INBOX + " WHERE scope = ?", PortableCrashHandler.SCOPE);
    }

    private static long preparedInDatabase() {
        return TestDatabase.preparedTransactions();
    }

    /** Sends one order that stops the server where its behaviour says, waits until it does, and kills the server. */
    private static void sendAndKill(String name, String orderId, String behaviour) throws Exception {
        try (StandaloneServer server = freshServer(name)) {
            Messages.of(server.url()).send(PortableCrashListener.QUEUE,
                    Map.of(Orders.ORDER_ID, orderId, Orders.BEHAVIOUR, behaviour), 1);
            CrashApplication.awaitCrashPoint(orderId);
            server.kill();
        }
    }

    @Test
    void killedInTheHandlerTheRestartedServerProcessesTheMessageOnce() throws Exception {
        TestDatabase.update("DELETE FROM " + INBOX + " WHERE scope = ?", PortableCrashHandler.SCOPE);
        String orderId = "killed-" + UUID.randomUUID();
        sendAndKill("handler", orderId, "hang");

        // The database rolled back when the connection dropped: nothing of the first attempt is left.
        assertEquals(0, invoices(orderId), "the invoice was flushed but never committed");
        assertEquals(0, markers());
        assertEquals(0, preparedInDatabase());

        try (StandaloneServer server = StandaloneServer.start("handler", war(), BOOT)) {
            Await.until(WAIT, "the redelivery to be processed", () -> markers() == 1);
        }
        assertEquals(2, calls(orderId), "the redelivery reached the handler");
        assertEquals(1, invoices(orderId));
        assertEquals(1, markers());
    }

    @Test
    void killedAfterTheDecisionToCommitRecoveryCommitsTheDatabaseAndNothingRunsTwice() throws Exception {
        assumeTrue(Server.current().exposesTransactionManager() && !Server.nonXa(),
                "needs an XA datasource and the transaction manager in JNDI (WildFly's java:jboss/TransactionManager)");
        TestDatabase.update("DELETE FROM " + INBOX + " WHERE scope = ?", PortableCrashHandler.SCOPE);
        String orderId = "killed-" + UUID.randomUUID();
        sendAndKill("commit", orderId, "hang-in-commit");

        // The broker's branch was committed before the crash point's; the database's is in doubt: prepared, holding
        // the invoice and the marker, invisible.
        assertEquals(1, preparedInDatabase(), "the database's branch is prepared");
        assertEquals(0, invoices(orderId));
        assertEquals(0, markers());

        try (StandaloneServer server = StandaloneServer.start("commit", war(), BOOT)) {
            // The log says commit: recovery commits the prepared branch.
            Await.until(WAIT, "recovery to complete the database's branch", () -> preparedInDatabase() == 0);
        }
        assertEquals(1, invoices(orderId));
        assertEquals(1, markers());
        assertEquals(1, calls(orderId), "the handler ran once");
    }
}
