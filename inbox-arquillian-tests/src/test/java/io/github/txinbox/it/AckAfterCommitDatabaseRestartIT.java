package io.github.txinbox.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.txinbox.it.aftercommit.AckAfterCommitOrders;
import io.github.txinbox.it.aftercommit.AckAfterCommitOrdersListener;
import io.github.txinbox.it.app.TestDatabase;
import io.github.txinbox.it.harness.Await;
import io.github.txinbox.it.harness.Broker;
import io.github.txinbox.it.harness.Deployments;
import io.github.txinbox.it.harness.DurablePostgres.Shutdown;
import io.github.txinbox.it.harness.DurablePostgres;
import io.github.txinbox.it.harness.PayaraMicro;
import io.github.txinbox.it.harness.PersistentBroker;
import io.github.txinbox.it.harness.StandaloneServer;
import io.github.txinbox.it.messaging.Orders;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * PostgreSQL stopped and started again under a running server while a stream of orders, each sent twice, flows
 * through the set-up that acknowledges after the commit ({@link AckAfterCommitOrdersListener}): once with a fast
 * shutdown (sessions ended, their transactions rolled back), once with an immediate one (a crash, recovered from the
 * write-ahead log). While the database is away, claims fail, their transactions roll back and the exception leaves
 * {@code onMessage}; the broker redelivers with a delay that backs off; the server's pool replaces its broken
 * connections; and in the end every order has exactly one invoice and one marker, none is dead-lettered, and nothing
 * was resolved by hand: the broker's deliveries were in no transaction, and a prepared branch anywhere fails the test.
 * Payara Micro runs by hand against a PostgreSQL of this test's own, which flushes every commit as a production server
 * does, and a broker of its own with that back-off; the datasource is a plain one with no connection validation set.
 */
@Tag("nonxa")
class AckAfterCommitDatabaseRestartIT {

    private static final int ORDERS = 300;
    private static final int COPIES = 2;
    private static final Duration OUTAGE = Duration.ofSeconds(3);

    @Test
    void aDatabaseStoppedAndCrashedUnderLoadLosesNothingAndDoublesNothing() throws Exception {
        Path war = Deployments.export(Deployments.war(AckAfterCommitDatabaseRestartIT.class, Orders.class,
                AckAfterCommitOrdersListener.class, AckAfterCommitOrders.class));

        String batch = "db-restart-" + UUID.randomUUID();
        try (DurablePostgres database = DurablePostgres.start(System.getProperty("inbox.db.user"), false);
                PersistentBroker broker = PersistentBroker.start(
                        Path.of(System.getProperty("txinbox.it.workDir"), "database-restart"), Duration.ofMillis(500),
                        Duration.ofSeconds(5));
                StandaloneServer server = PayaraMicro.start(war, Duration.ofMinutes(3), List.of(),
                        Integer.toString(broker.port()), database.url())) {
            CompletableFuture<Void> sending = CompletableFuture.runAsync(() -> send(broker, batch));

            long atFastStop = outage(database, Shutdown.FAST, batch, 20);
            long atCrash = outage(database, Shutdown.IMMEDIATE, batch, atFastStop + 20);
            sending.get(2, TimeUnit.MINUTES);

            broker.awaitDrainedByItself("orders",
                    () -> invoiced(database, batch, "count(DISTINCT orderid)") + broker.deadLetters() >= ORDERS,
                    Duration.ofMinutes(3),
                    () -> invoiced(database, batch, "count(DISTINCT orderid)") + " of " + ORDERS + " orders invoiced");
            System.out.printf("database restart: %d orders sent %d times each; %d invoiced at the fast shutdown, %d "
                    + "at the crash; %d handler calls recorded; highest delivery count %d%n", ORDERS, COPIES,
                    atFastStop, atCrash, database.queryLong("SELECT count(*) FROM " + TestDatabase.SCHEMA
                            + ".handler_call WHERE order_id LIKE ?", batch + "-%"), database.queryLong(
                            "SELECT max(delivery) FROM " + TestDatabase.SCHEMA + ".handler_call WHERE order_id LIKE ?",
                            batch + "-%"));
            assertEquals(0, database.queryLong("SELECT count(*) FROM pg_prepared_xacts"));
            assertEquals(0, broker.deadLetters(), "an order was dead-lettered");
            assertEquals(0, database.queryLong("SELECT current_setting('max_prepared_transactions')::int"),
                    "PostgreSQL runs at max_prepared_transactions = 0, as on the non-XA leg");
            assertTrue(server.output().contains("PSQLException"), "the server never met the database's absence");

            assertEquals(ORDERS, invoiced(database, batch, "count(*)"), "an order was invoiced twice, or not at all");
            assertEquals(ORDERS, invoiced(database, batch, "count(DISTINCT orderid)"));
            assertEquals(ORDERS, database.queryLong("SELECT count(*) FROM " + TestDatabase.INBOX
                    + " WHERE scope = ? AND message_id LIKE ?", AckAfterCommitOrders.SCOPE, batch + "-%"));
        }
    }

    /** Sends the copies of each order in a row (deliveries of it in flight at once), one order each 50 ms. */
    private static void send(PersistentBroker broker, String batch) {
        for (int i = 0; i < ORDERS; i++) {
            Map<String, String> order = Map.of(Orders.ORDER_ID, batch + "-" + i);
            Broker.sendEach(broker.url(), "orders", Collections.nCopies(COPIES, order));
            try {
                Thread.sleep(50);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while sending", e);
            }
        }
    }

    /**
     * Waits until the given number of orders is invoiced, stops the database in the given mode with orders still in
     * flight, starts it again after {@link #OUTAGE}, and waits until orders are invoiced again.
     *
     * @return how many orders were invoiced when the database stopped
     */
    private static long outage(DurablePostgres database, Shutdown mode, String batch, long invoicedFirst)
            throws InterruptedException {
        Await.until(Duration.ofMinutes(1), invoicedFirst + " orders to be invoiced",
                () -> invoiced(database, batch, "count(*)") >= invoicedFirst);
        long before = invoiced(database, batch, "count(*)");
        database.stop(mode);
        assertTrue(before < ORDERS, "every order was invoiced before the " + mode + " shutdown: none was in flight");
        Thread.sleep(OUTAGE.toMillis());
        database.start();
        long after = invoiced(database, batch, "count(*)");
        Await.until(Duration.ofMinutes(1), "orders to be invoiced again after the " + mode + " shutdown",
                () -> invoiced(database, batch, "count(*)") > after);
        return before;
    }

    private static long invoiced(DurablePostgres database, String batch, String select) {
        return database.queryLong("SELECT " + select + " FROM " + TestDatabase.SCHEMA + ".invoice "
                + "WHERE consumer = 'orders' AND orderid LIKE ?", batch + "-%");
    }
}
