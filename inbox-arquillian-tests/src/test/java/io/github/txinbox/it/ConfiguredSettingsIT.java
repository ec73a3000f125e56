package io.github.txinbox.it;

import static io.github.txinbox.it.app.TestDatabase.markers;
import static io.github.txinbox.it.app.TestDatabase.queryLong;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.github.txinbox.it.app.TestDatabase;
import io.github.txinbox.it.configured.ConfiguredListener;
import io.github.txinbox.it.harness.ArtemisSession;
import io.github.txinbox.it.harness.Broker;
import io.github.txinbox.it.harness.Deployments;
import io.github.txinbox.it.messaging.Orders;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The settings given in the application's {@code META-INF/microprofile-config.properties} reach the inbox: the table,
 * the default key property and the message id limit, seen end to end through an MDB.
 */
@ExtendWith(ArquillianExtension.class)
class ConfiguredSettingsIT {

    /** The table named in the configuration; PostgresSession creates it. */
    static final String TABLE = TestDatabase.CUSTOM_SCHEMA + ".configured";

    static final int MESSAGE_ID_BYTES = 48;

    private static final Duration DRAIN = Duration.ofSeconds(30);

    @Deployment(testable = false)
    static WebArchive deployment() {
        return Deployments.withSettings(Deployments.war(ConfiguredSettingsIT.class, Orders.class)
                        .addPackage(ConfiguredListener.class.getPackage()),
                "txinbox.table=" + TABLE, "txinbox.key=" + Orders.ORDER_ID,
                "txinbox.limits.message-id-bytes=" + MESSAGE_ID_BYTES);
    }

    private static long invoices(String orderId) {
        return TestDatabase.invoices(ConfiguredListener.SCOPE, orderId);
    }

    private static void sendThree(String orderId) {
        Broker.sendEach(ConfiguredListener.QUEUE, List.of(Map.of(Orders.ORDER_ID, orderId),
                Map.of(Orders.ORDER_ID, orderId), Map.of(Orders.ORDER_ID, orderId)));
        Broker.awaitDrained(ConfiguredListener.QUEUE, DRAIN);
    }

    @Test
    void messagesAreClaimedByTheConfiguredKeyInTheConfiguredTable() {
        // Three messages, three JMSMessageIDs, one order: deduplicated by the configured key, orderId.
        String orderId = "order-" + UUID.randomUUID();
        sendThree(orderId);
        assertEquals(1, invoices(orderId));
        assertEquals(1, markers(TABLE, ConfiguredListener.SCOPE, orderId));
        assertEquals(0, markers(TestDatabase.INBOX, ConfiguredListener.SCOPE, orderId));
    }

    @Test
    void anIdAtTheConfiguredLimitIsProcessed() {
        String orderId = "x".repeat(MESSAGE_ID_BYTES);
        TestDatabase.update("DELETE FROM " + TABLE + " WHERE message_id = ?", orderId);
        TestDatabase.update("DELETE FROM " + TestDatabase.SCHEMA + ".invoice WHERE consumer = ? AND orderid = ?",
                ConfiguredListener.SCOPE, orderId);
        sendThree(orderId);
        assertEquals(1, invoices(orderId));
        assertEquals(1, markers(TABLE, ConfiguredListener.SCOPE, orderId));
    }

    @Test
    void anIdOverTheConfiguredLimitIsNeverProcessed() {
        String orderId = "y" + UUID.randomUUID() + "-".repeat(MESSAGE_ID_BYTES - 36);
        assertEquals(MESSAGE_ID_BYTES + 1, orderId.length());
        Broker.send(ConfiguredListener.QUEUE, Map.of(Orders.ORDER_ID, orderId));
        Broker.awaitDrained(ConfiguredListener.QUEUE, DRAIN);
        assertEquals(1, Broker.count(ArtemisSession.DEAD_LETTER_QUEUE, "orderId = '" + orderId + "'"),
                "after its attempts the broker dead-lettered it");
        assertEquals(0, invoices(orderId));
        assertEquals(0, markers(TABLE, ConfiguredListener.SCOPE, orderId));
    }
}
