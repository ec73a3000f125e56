package io.github.txinbox.it;

import static io.github.txinbox.it.BrokerRestartIT.callsOfOrdersNotInvoiced;
import static io.github.txinbox.it.BrokerRestartIT.invoiced;
import static io.github.txinbox.it.app.TestDatabase.INBOX;
import static io.github.txinbox.it.app.TestDatabase.queryLong;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.txinbox.it.aftercommit.AckAfterCommitOrders;
import io.github.txinbox.it.aftercommit.AckAfterCommitOrdersListener;
import io.github.txinbox.it.app.TestDatabase;
import io.github.txinbox.it.harness.Await;
import io.github.txinbox.it.harness.Broker;
import io.github.txinbox.it.harness.Deployments;
import io.github.txinbox.it.harness.PayaraMicro;
import io.github.txinbox.it.harness.PersistentBroker;
import io.github.txinbox.it.harness.StandaloneServer;
import io.github.txinbox.it.messaging.Orders;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The broker (persistent, as in production) stopped and started again under a running server while a burst of
 * orders is being consumed, in the set-up that acknowledges after the commit ({@link AckAfterCommitOrdersListener}).
 * Payara Micro runs by hand, connected to a broker of this test's own. The broker's deliveries are in no transaction:
 * a message whose acknowledgement the restart cut off comes again and is a duplicate where its transaction had
 * committed. Each order's handler takes 100 ms, so that orders are in flight when the broker stops. Every order ends
 * invoiced once, none dead-lettered, and nothing is resolved by hand: a branch prepared in the broker fails the test.
 */
@Tag("nonxa")
class AckAfterCommitBrokerRestartIT {

    private static final int ORDERS = 40;
    @Test
    void aBrokerRestartWithMessagesInFlightLosesNothingAndDoublesNothing() throws Exception {
        Path war = Deployments.export(Deployments.war(AckAfterCommitBrokerRestartIT.class, Orders.class,
                AckAfterCommitOrdersListener.class, AckAfterCommitOrders.class));

        String batch = "restart-" + UUID.randomUUID();
        try (PersistentBroker broker = PersistentBroker.start(
                        Path.of(System.getProperty("txinbox.it.workDir"), "broker-restart"));
                StandaloneServer server = PayaraMicro.start(war, Duration.ofMinutes(3), List.of(),
                        Integer.toString(broker.port()))) {
            Broker.sendEach(broker.url(), "orders", IntStream.range(0, ORDERS)
                    .mapToObj(i -> Map.of(Orders.ORDER_ID, batch + "-" + i, Orders.BEHAVIOUR, "slow")).toList());
            Await.until(Duration.ofSeconds(30), "the first orders to be invoiced",
                    () -> invoiced(batch, "count(*)") >= 3);
            broker.restart();
            long invoicedAtRestart = invoiced(batch, "count(*)");
            assertTrue(invoicedAtRestart < ORDERS, "every order was invoiced before the restart: none was in flight");

            broker.awaitDrainedByItself("orders",
                    () -> invoiced(batch, "count(DISTINCT orderid)") + broker.deadLetters() >= ORDERS,
                    Duration.ofSeconds(120),
                    () -> invoiced(batch, "count(DISTINCT orderid)") + " of " + ORDERS + " orders invoiced; handler "
                            + "calls of the orders not invoiced: " + callsOfOrdersNotInvoiced(batch, ORDERS));
            System.out.printf("broker restart, acknowledged after the commit: %d of %d orders invoiced at the "
                    + "restart; %d handler runs beyond one per order; highest delivery count %d%n", invoicedAtRestart,
                    ORDERS,
                    queryLong("SELECT count(*) FROM " + TestDatabase.SCHEMA + ".handler_call WHERE order_id LIKE ?",
                            batch + "-%") - ORDERS, queryLong("SELECT max(delivery) FROM " + TestDatabase.SCHEMA
                            + ".handler_call WHERE order_id LIKE ?", batch + "-%"));
            assertEquals(0, broker.deadLetters(), "an order was dead-lettered");
        }
        assertEquals(ORDERS, invoiced(batch, "count(*)"), "an order was invoiced twice, or not at all");
        assertEquals(ORDERS, invoiced(batch, "count(DISTINCT orderid)"));
        assertEquals(ORDERS, queryLong("SELECT count(*) FROM " + INBOX + " WHERE scope = ? AND message_id LIKE ?",
                AckAfterCommitOrders.SCOPE, batch + "-%"));
    }
}
