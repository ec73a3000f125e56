package io.github.txinbox.it;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.github.txinbox.it.app.TestDatabase;
import io.github.txinbox.it.harness.Await;
import io.github.txinbox.it.harness.Deployments;
import io.github.txinbox.it.harness.DurablePostgres.Shutdown;
import io.github.txinbox.it.harness.DurablePostgres;
import io.github.txinbox.it.harness.Messages;
import io.github.txinbox.it.harness.Server;
import io.github.txinbox.it.harness.StandaloneServer;
import io.github.txinbox.it.messaging.Orders;
import io.github.txinbox.it.portable.PortableCrashHandler;
import io.github.txinbox.it.portable.PortableCrashListener;
import java.time.Duration;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * PostgreSQL restarted, with XA, in the second phase of a commit: the decision to commit is logged and the broker's
 * branch committed (its message gone), the database's branch prepared. A crash point enlisted after the broker holds
 * the second phase ({@code hold-in-commit}) while the test stops PostgreSQL (fast shutdown: sessions end, prepared
 * transactions stay) and starts it again, then lets it go: the server's commit of the database's branch meets a
 * closed connection and fails, and the branch stays prepared, in doubt, holding the order's invoice, its marker and
 * the marker's row lock. Nothing is resolved by hand: the server's own mechanism must commit the branch, with the
 * setting docs/guarantees.md names, on Payara Micro the transaction service's {@code pending-txn-cleanup-interval}
 * (with automatic recovery on), on WildFly Narayana's periodic recovery, both shortened here to
 * {@value #RECOVERY_SECONDS} s. Then more orders go through the restarted database (Payara's pool validates its
 * connections, which the restart broke), and every order is invoiced exactly once; none is dead-lettered or left
 * queued, and nothing is left prepared. The Payara Micro XA legs run it (tag {@code xa}), and WildFly's XA leg (tag
 * {@code xa-database-restart} among its groups).
 */
@Tag("xa")
@Tag("xa-database-restart")
class XaDatabaseRestartIT {

    private static final int ORDERS = 5;
    private static final int RECOVERY_SECONDS = 5;
    private static final Duration BOOT = Duration.ofMinutes(3);
    private static final String NAME = "xa-database-restart";

    @Test
    void aDatabaseRestartInTheSecondPhaseLeavesABranchInDoubtThatTheServerCommitsByItself() throws Exception {
        String batch = "xa-restart-" + UUID.randomUUID();
        try (DurablePostgres database = DurablePostgres.start(System.getProperty("inbox.db.user"), true);
                StandaloneServer server = Server.current().startRecovering(NAME,
                        Deployments.withMessaging(Deployments.war(XaDatabaseRestartIT.class)), BOOT, database.url(),
                        RECOVERY_SECONDS)) {
            try {
                restartInTheSecondPhase(database, server, Messages.of(server.url()), batch);
            } catch (AssertionError | RuntimeException e) {
                System.out.println("The server's output:\n" + server.output());
                throw e;
            }
        }
    }

    private static void restartInTheSecondPhase(DurablePostgres database, StandaloneServer server,
            Messages messages, String batch) throws InterruptedException {
        String held = batch + "-0";
        send(messages, held, "hold-in-commit");
        Await.until(Duration.ofSeconds(60), "the second phase to reach the crash point", () -> database.queryLong(
                "SELECT count(*) FROM " + TestDatabase.SCHEMA + ".handler_stall WHERE order_id = ?", held) == 1);
        assertEquals(1, prepared(database), "the database's branch is prepared when the second phase is held");

        database.stop(Shutdown.FAST);
        database.start();
        // The server's connection to the branch is gone; the branch is not.
        assertEquals(1, prepared(database), "the database's branch is in doubt after the restart");
        assertEquals(0, invoices(database, held), "the branch's invoice is invisible while it is in doubt");
        database.update("UPDATE " + TestDatabase.SCHEMA + ".handler_stall SET released = true WHERE order_id = ?",
                held);
        long released = System.nanoTime();

        Await.until(Duration.ofSeconds(90), "the server to end the prepared branch by itself",
                () -> prepared(database) == 0);
        long seconds = Duration.ofNanos(System.nanoTime() - released).toSeconds();

        for (int i = 1; i < ORDERS; i++) {
            send(messages, batch + "-" + i, "none");
        }
        Await.until(Duration.ofSeconds(60), "every order to be invoiced",
                () -> database.queryLong("SELECT count(DISTINCT orderid) FROM " + TestDatabase.SCHEMA
                        + ".invoice WHERE orderid LIKE ?", batch + "-%") == ORDERS);
        System.out.printf("XA database restart on %s: the held branch was prepared after the restart and ended "
                + "by the server %d s after the second phase was let go (an XAException in its log: %s)%n",
                Server.current(), seconds, server.output().contains("XAException"));

        for (int i = 0; i < ORDERS; i++) {
            String orderId = batch + "-" + i;
            assertEquals(1, invoices(database, orderId), orderId + " was invoiced twice, or not at all");
            assertEquals(0, messages.deadLettered(Orders.ORDER_ID, orderId), orderId + " was dead-lettered");
        }
        assertEquals(1, database.queryLong("SELECT count(*) FROM " + TestDatabase.SCHEMA
                + ".handler_call WHERE order_id = ?", held), "the held order's handler ran once");
        assertEquals(ORDERS, database.queryLong("SELECT count(*) FROM " + TestDatabase.INBOX
                + " WHERE scope = ?", PortableCrashHandler.SCOPE), "one marker per order");
        assertEquals(0, messages.queued(PortableCrashListener.QUEUE), "an order was left queued");
        assertEquals(0, prepared(database));
    }

    private static long prepared(DurablePostgres database) {
        return database.queryLong("SELECT count(*) FROM pg_prepared_xacts WHERE database = current_database()");
    }

    private static long invoices(DurablePostgres database, String orderId) {
        return database.queryLong("SELECT count(*) FROM " + TestDatabase.SCHEMA + ".invoice WHERE orderid = ?",
                orderId);
    }

    private static void send(Messages messages, String orderId, String behaviour) {
        messages.send(PortableCrashListener.QUEUE, Map.of(Orders.ORDER_ID, orderId, Orders.BEHAVIOUR, behaviour), 1);
    }
}
