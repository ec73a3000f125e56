package io.github.txinbox.it;

import static io.github.txinbox.it.app.TestDatabase.INBOX;
import static io.github.txinbox.it.app.TestDatabase.queryLong;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.github.txinbox.it.app.TestDatabase;
import io.github.txinbox.it.harness.ArtemisSession;
import io.github.txinbox.it.harness.Await;
import io.github.txinbox.it.harness.Broker;
import io.github.txinbox.it.harness.Deployments;
import io.github.txinbox.it.messaging.Orders;
import io.github.txinbox.it.messaging.OrdersListener;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * 10 000 orders through the real stack: 10 % of them sent twice, 5 % failing on their first delivery. Every order is
 * invoiced exactly once, every invoice has its marker and every marker its invoice, and nothing is dead-lettered.
 * Not part of the default build: {@code mvn -B verify -Psoak -pl inbox-arquillian-tests -am -Dit.test=InboxSoakIT}.
 */
@ExtendWith(ArquillianExtension.class)
class InboxSoakIT {

    private static final int ORDERS = 10_000;

    @Deployment(testable = false)
    static WebArchive deployment() {
        return Deployments.war(InboxSoakIT.class).addPackage(Orders.class.getPackage());
    }

    @Test
    void tenThousandOrdersWithDuplicatesAndFailures() {
        String batch = "soak-" + UUID.randomUUID().toString().substring(0, 8);
        List<Map<String, String>> messages = new ArrayList<>();
        for (int i = 0; i < ORDERS; i++) {
            String orderId = batch + "-" + i;
            Map<String, String> message = i % 20 == 0
                    ? Map.of(Orders.ORDER_ID, orderId, Orders.BEHAVIOUR, "fail-first")
                    : Map.of(Orders.ORDER_ID, orderId);
            messages.add(message);
            if (i % 10 == 1) {
                messages.add(message);
            }
        }
        long started = System.nanoTime();
        Broker.sendEach("orders", messages);
        Await.until(Duration.ofMinutes(20), "every order to be invoiced", () -> queryLong("SELECT count(DISTINCT "
                + "orderid) FROM " + TestDatabase.SCHEMA + ".invoice WHERE orderid LIKE ?", batch + "-%") == ORDERS);
        Broker.awaitDrained("orders", Duration.ofMinutes(5));
        double seconds = (System.nanoTime() - started) / 1e9;
        System.out.printf("SOAK: %d messages (%d orders, %d duplicates, %d failing first) in %.1f s: %.0f messages/s%n",
                messages.size(), ORDERS, messages.size() - ORDERS, ORDERS / 20, seconds, messages.size() / seconds);

        String scope = OrdersListener.class.getName();
        assertEquals(ORDERS, queryLong("SELECT count(*) FROM " + TestDatabase.SCHEMA + ".invoice WHERE orderid LIKE ?",
                batch + "-%"), "an order was invoiced twice");
        assertEquals(ORDERS, queryLong("SELECT count(*) FROM " + INBOX + " WHERE scope = ? AND message_id LIKE ?",
                scope, batch + "-%"));
        assertEquals(0, queryLong("SELECT count(*) FROM " + INBOX + " m WHERE m.scope = ? AND m.message_id LIKE ? "
                + "AND NOT EXISTS (SELECT 1 FROM " + TestDatabase.SCHEMA + ".invoice i WHERE i.orderid = m.message_id)",
                scope, batch + "-%"), "a marker without its invoice");
        assertEquals(0, queryLong("SELECT count(*) FROM " + TestDatabase.SCHEMA + ".invoice i WHERE i.orderid LIKE ? "
                + "AND NOT EXISTS (SELECT 1 FROM " + INBOX + " m WHERE m.scope = ? AND m.message_id = i.orderid)",
                batch + "-%", scope), "an invoice without its marker");
        assertEquals(ORDERS + ORDERS / 20, queryLong("SELECT count(*) FROM " + TestDatabase.SCHEMA
                + ".handler_call WHERE order_id LIKE ?", batch + "-%"), "handler runs: one per order, one more per failure");
        assertEquals(0, Broker.count(ArtemisSession.DEAD_LETTER_QUEUE, "orderId LIKE '" + batch + "-%'"));
    }
}
