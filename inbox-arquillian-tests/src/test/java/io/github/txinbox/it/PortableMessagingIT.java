package io.github.txinbox.it;

import static io.github.txinbox.it.app.TestDatabase.INBOX;
import static io.github.txinbox.it.app.TestDatabase.decisions;
import static io.github.txinbox.it.app.TestDatabase.handlerCalls;
import static io.github.txinbox.it.app.TestDatabase.invoices;
import static io.github.txinbox.it.app.TestDatabase.markers;
import static io.github.txinbox.it.app.TestDatabase.newOrderId;
import static io.github.txinbox.it.app.TestDatabase.queryLong;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.github.txinbox.it.app.TestDatabase;
import io.github.txinbox.it.harness.ArtemisSession;
import io.github.txinbox.it.harness.Await;
import io.github.txinbox.it.harness.Deployments;
import io.github.txinbox.it.harness.Messages;
import io.github.txinbox.it.messaging.Orders;
import io.github.txinbox.it.portable.PortableOrdersListener;
import io.github.txinbox.it.portable.PortableServiceListener;
import java.net.URL;
import java.time.Duration;
import java.util.Map;
import java.util.UUID;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.arquillian.test.api.ArquillianResource;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Every result rule of {@code @Inbox} end to end, through message-driven beans on the broker of the server under
 * test (Artemis through the test resource adapter on Payara Micro, WildFly's own Artemis, Open Liberty's messaging
 * engine), redelivered and dead-lettered by that broker as the server's settings say (at most
 * {@value ArtemisSession#MAX_DELIVERY_ATTEMPTS} deliveries on every server). The tests wait for the inbox's decisions,
 * which the deployment records as they happen, rather than for the broker's counters.
 */
@Tag("portable")
@ExtendWith(ArquillianExtension.class)
class PortableMessagingIT {

    private static final Duration WAIT = Duration.ofSeconds(60);

    private static final String SCOPE = PortableOrdersListener.class.getName();

    @Deployment(testable = false)
    static WebArchive deployment() {
        return Deployments.withMessaging(Deployments.war(PortableMessagingIT.class));
    }

    @ArquillianResource
    URL url;

    private Messages messages;

    @BeforeEach
    void reachTheDeployment() {
        messages = Messages.of(url);
    }


    /** Waits until a message's marker has committed. */
    private static void awaitCommitted(String scope, String messageId) {
        Await.until(WAIT, "the commit of " + messageId, () -> markers(INBOX, scope, messageId) == 1);
    }

    private void sendOrders(String orderId, int copies) {
        messages.send(PortableOrdersListener.QUEUE, Map.of(Orders.ORDER_ID, orderId), copies);
        // Every copy is decided once, processed or a duplicate; a conflicting claim would retry and decide again.
        Await.until(WAIT, copies + " decisions on " + orderId, () -> decisions(SCOPE, orderId, "PROCESSED")
                + decisions(SCOPE, orderId, "DUPLICATE") == copies);
        awaitCommitted(SCOPE, orderId);
    }

    @Test
    void threeCopiesOfOneOrderAreInvoicedOnce() {
        String orderId = newOrderId();
        sendOrders(orderId, 3);

        assertEquals(1, decisions(SCOPE, orderId, "PROCESSED"));
        assertEquals(2, decisions(SCOPE, orderId, "DUPLICATE"));
        assertEquals(1, invoices(PortableOrdersListener.CONSUMER, orderId));
        assertEquals(1, handlerCalls(PortableOrdersListener.CONSUMER, orderId), "the handler ran once");
        assertEquals(1, markers(INBOX, SCOPE, orderId));
    }

    @Test
    void twentyConcurrentCopiesOfOneOrderAreInvoicedOnce() {
        String orderId = newOrderId();
        sendOrders(orderId, 20);

        assertEquals(1, decisions(SCOPE, orderId, "PROCESSED"));
        assertEquals(1, invoices(PortableOrdersListener.CONSUMER, orderId));
        assertEquals(1, handlerCalls(PortableOrdersListener.CONSUMER, orderId), "the handler ran once");
        assertEquals(1, markers(INBOX, SCOPE, orderId));
    }

    @Test
    void aRetryRollsBackAndTheBrokerRedeliversTheMessageToBeProcessedOnce() {
        String orderId = newOrderId();
        messages.send(PortableOrdersListener.QUEUE, Map.of(Orders.ORDER_ID, orderId, Orders.BEHAVIOUR,
                "retry-first"), 1);
        Await.until(WAIT, "the redelivery of " + orderId, () -> decisions(SCOPE, orderId, "PROCESSED") == 1);
        awaitCommitted(SCOPE, orderId);

        Await.count(WAIT, "RETRY decisions", 1, () -> decisions(SCOPE, orderId, "RETRY"));
        assertEquals(2, handlerCalls(PortableOrdersListener.CONSUMER, orderId), "the redelivery ran the handler again");
        assertEquals(1, invoices(PortableOrdersListener.CONSUMER, orderId), "the first attempt's invoice rolled back");
        assertEquals(1, markers(INBOX, SCOPE, orderId));
    }

    @Test
    void aFailureRollsBackAndTheBrokerRedeliversTheMessageToBeProcessedOnce() {
        String orderId = newOrderId();
        messages.send(PortableOrdersListener.QUEUE, Map.of(Orders.ORDER_ID, orderId, Orders.BEHAVIOUR,
                "fail-first"), 1);
        Await.until(WAIT, "the redelivery of " + orderId, () -> decisions(SCOPE, orderId, "PROCESSED") == 1);
        awaitCommitted(SCOPE, orderId);

        Await.count(WAIT, "FAILURE decisions", 1, () -> decisions(SCOPE, orderId, "FAILURE"));
        assertEquals(2, handlerCalls(PortableOrdersListener.CONSUMER, orderId));
        assertEquals(1, invoices(PortableOrdersListener.CONSUMER, orderId));
        assertEquals(1, markers(INBOX, SCOPE, orderId));
        assertEquals(0, messages.deadLettered(Orders.ORDER_ID, orderId));
    }

    @Test
    void aSkippedMessageLeavesAMarkerAndNoInvoiceAndItsCopyIsADuplicate() {
        String orderId = newOrderId();
        Map<String, String> skip = Map.of(Orders.ORDER_ID, orderId, Orders.BEHAVIOUR, "skip");
        messages.send(PortableServiceListener.QUEUE, skip, 1);
        Await.until(WAIT, "the skip of " + orderId, () -> decisions("service", orderId, "SKIPPED") == 1);
        awaitCommitted("service", orderId);
        messages.send(PortableServiceListener.QUEUE, skip, 1);
        Await.until(WAIT, "the copy of " + orderId, () -> decisions("service", orderId, "DUPLICATE") == 1);

        assertEquals(1, handlerCalls("service", orderId), "the copy did not reach the method");
        assertEquals(0, invoices("service", orderId));
        assertEquals(1, markers(INBOX, "service", orderId));
    }

    @Test
    void aMessageWithoutItsKeyIsNeverProcessedAndEndsDeadLettered() {
        String testId = UUID.randomUUID().toString();
        long invoicesBefore = queryLong("SELECT count(*) FROM " + TestDatabase.SCHEMA + ".invoice");
        long markersBefore = queryLong("SELECT count(*) FROM " + INBOX);
        long missingBefore = queryLong("SELECT count(*) FROM " + TestDatabase.SCHEMA
                + ".inbox_decision WHERE scope = ? AND outcome = 'MISSING_ID'", SCOPE);

        messages.send(PortableOrdersListener.QUEUE, Map.of("testId", testId), 1);
        Await.until(WAIT, "the message to be dead-lettered", () -> messages.deadLettered("testId", testId) == 1);

        // Each delivery is reported once its transaction has ended: the last may come after the message is moved.
        Await.count(WAIT, "MISSING_ID decisions, one per delivery", ArtemisSession.MAX_DELIVERY_ATTEMPTS,
                () -> queryLong("SELECT count(*) FROM " + TestDatabase.SCHEMA
                        + ".inbox_decision WHERE scope = ? AND outcome = 'MISSING_ID'", SCOPE) - missingBefore);
        assertEquals(invoicesBefore, queryLong("SELECT count(*) FROM " + TestDatabase.SCHEMA + ".invoice"));
        assertEquals(markersBefore, queryLong("SELECT count(*) FROM " + INBOX));
    }
}
