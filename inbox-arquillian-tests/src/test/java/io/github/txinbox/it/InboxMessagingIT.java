package io.github.txinbox.it;

import static io.github.txinbox.it.app.TestDatabase.INBOX;
import static io.github.txinbox.it.app.TestDatabase.handlerCalls;
import static io.github.txinbox.it.app.TestDatabase.invoices;
import static io.github.txinbox.it.app.TestDatabase.markers;
import static io.github.txinbox.it.app.TestDatabase.newOrderId;
import static io.github.txinbox.it.app.TestDatabase.queryLong;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.github.txinbox.it.app.TestDatabase;
import io.github.txinbox.it.harness.ArtemisSession;
import io.github.txinbox.it.harness.Await;
import io.github.txinbox.it.harness.Broker;
import io.github.txinbox.it.harness.CrashApplication;
import io.github.txinbox.it.harness.Deployments;
import io.github.txinbox.it.harness.Server;
import io.github.txinbox.it.messaging.AuditListener;
import io.github.txinbox.it.messaging.Orders;
import io.github.txinbox.it.messaging.OrdersListener;
import java.time.Duration;
import java.util.Map;
import java.util.UUID;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * {@code @Inbox} on message-driven beans, end to end: messages sent to a real Artemis broker, consumed by MDBs in
 * Payara Micro through the Artemis resource adapter, in XA transactions with PostgreSQL (or, on the non-XA leg, with
 * PostgreSQL as the one one-phase resource), redelivered by the broker itself. Each test checks the business effect (invoices), the markers and the handler's calls.
 */
@ExtendWith(ArquillianExtension.class)
class InboxMessagingIT {

    private static final Duration DRAIN = Duration.ofSeconds(30);

    @Deployment(testable = false)
    static WebArchive deployment() {
        return Deployments.war(InboxMessagingIT.class).addPackage(Orders.class.getPackage());
    }


    @Test
    void theSameOrderSentThreeTimesIsInvoicedOnce() {
        String orderId = newOrderId();
        for (int i = 0; i < 3; i++) {
            Broker.send("orders", Map.of(Orders.ORDER_ID, orderId));
        }
        Broker.awaitDrained("orders", DRAIN);

        assertEquals(1, invoices("orders", orderId));
        assertEquals(1, handlerCalls("orders", orderId), "the handler ran once");
        assertEquals(1, markers(INBOX, OrdersListener.class.getName(), orderId));
    }

    @Test
    void twentyConcurrentCopiesOfOneOrderAreInvoicedOnce() {
        String orderId = newOrderId();
        // Sent in a burst: the listener's four sessions take copies at once and race to claim the same key.
        Broker.send("orders", Map.of(Orders.ORDER_ID, orderId), 20);
        Broker.awaitDrained("orders", DRAIN);

        assertEquals(1, invoices("orders", orderId));
        assertEquals(1, markers(INBOX, OrdersListener.class.getName(), orderId));
        assertEquals(1, handlerCalls("orders", orderId), "the handler ran once: once per successful claim");
    }

    @Test
    void aRetryRollsBackTheFirstDeliveryAndTheRedeliveryIsProcessed() throws InterruptedException {
        String orderId = newOrderId();
        String messageId = Broker.send("redelivery", Map.of(Orders.ORDER_ID, orderId, Orders.BEHAVIOUR, "retry-first"));

        // Between the two attempts (the broker waits 2 s on this queue): the first one left nothing behind.
        Await.until(Duration.ofSeconds(20), "the first delivery", () -> handlerCalls("redelivery", orderId) == 1);
        Thread.sleep(500);
        assertEquals(1, handlerCalls("redelivery", orderId), "redelivered too early to look in between");
        assertEquals(0, invoices("redelivery", orderId));
        assertEquals(0, markers(INBOX, "redelivery", messageId));

        Broker.awaitDrained("redelivery", DRAIN);
        assertEquals(2, handlerCalls("redelivery", orderId), "the redelivery ran the handler again");
        assertEquals(1, queryLong("SELECT count(*) FROM " + TestDatabase.SCHEMA
                + ".handler_call WHERE order_id = ? AND delivery = 2", orderId));
        assertEquals(1, invoices("redelivery", orderId));
        assertEquals(1, markers(INBOX, "redelivery", messageId));
    }

    @Test
    void anExceptionOnTheFirstDeliveryRollsBackAndTheRedeliveryIsProcessedOnce() {
        String orderId = newOrderId();
        String messageId = Broker.send("redelivery", Map.of(Orders.ORDER_ID, orderId, Orders.BEHAVIOUR, "fail-first"));
        Broker.awaitDrained("redelivery", DRAIN);

        assertEquals(2, handlerCalls("redelivery", orderId));
        assertEquals(1, invoices("redelivery", orderId));
        assertEquals(1, markers(INBOX, "redelivery", messageId));
        assertEquals(0, Broker.count(ArtemisSession.DEAD_LETTER_QUEUE, "orderId = '" + orderId + "'"));
    }

    /** Waits until the handler of the order stalls, and returns its connection's backend pid. */
    private static long awaitStall(String orderId) {
        Await.until(Duration.ofSeconds(20), "the handler to stall", () -> queryLong("SELECT count(*) FROM "
                + TestDatabase.SCHEMA + ".handler_stall WHERE order_id = ?", orderId) == 1);
        return queryLong("SELECT pid FROM " + TestDatabase.SCHEMA + ".handler_stall WHERE order_id = ?", orderId);
    }

    /**
     * Without XA, Payara commits the database (the one one-phase resource) after it has prepared the broker's branch.
     * When that commit fails, Payara rolls the transaction back but leaves the broker's branch prepared: the broker
     * holds the message, neither lost nor redelivered, until its administrator rolls the branch back (docs/servers.md,
     * "Without XA"). With XA the transaction manager rolls the broker's branch back itself.
     */
    private static void rollBackTheHeldBranchWithoutXa(String orderId) throws Exception {
        if (!Server.nonXa()) {
            return;
        }
        Await.until(DRAIN, "the broker's branch to be left prepared", () -> Broker.preparedBranches() == 1);
        Thread.sleep(2_000);
        assertEquals(1, Broker.preparedBranches(), "nothing ended the broker's branch");
        assertEquals(1, handlerCalls("redelivery", orderId), "the held message was not redelivered");
        assertEquals(0, invoices("redelivery", orderId));
        Broker.rollBackThePreparedBranch();
    }

    @Test
    void aDatabaseConnectionKilledMidHandlerRollsBackAndTheRedeliveryIsProcessedOnce() throws Exception {
        String orderId = newOrderId();
        String messageId = Broker.send("redelivery", Map.of(Orders.ORDER_ID, orderId, Orders.BEHAVIOUR, "stall-first"));
        long pid = awaitStall(orderId);
        assertEquals(1, queryLong("SELECT CASE WHEN pg_terminate_backend(?) THEN 1 ELSE 0 END", (int) pid),
                "the handler's connection was not terminated");
        CrashApplication.releaseCrashPoint(orderId);
        rollBackTheHeldBranchWithoutXa(orderId);
        Broker.awaitDrained("redelivery", DRAIN);

        assertEquals(2, handlerCalls("redelivery", orderId));
        assertEquals(1, invoices("redelivery", orderId));
        assertEquals(1, markers(INBOX, "redelivery", messageId));
    }

    @Test
    void aFailedCommitLeavesNeitherInvoiceNorMarkerAndTheRedeliveryIsProcessedOnce() throws Exception {
        String orderId = newOrderId();
        String messageId = Broker.send("redelivery",
                Map.of(Orders.ORDER_ID, orderId, Orders.BEHAVIOUR, "fail-commit-first"));
        rollBackTheHeldBranchWithoutXa(orderId);
        Broker.awaitDrained("redelivery", DRAIN);

        assertEquals(2, handlerCalls("redelivery", orderId), "the commit failed, so the message came again");
        assertEquals(1, invoices("redelivery", orderId));
        assertEquals(1, markers(INBOX, "redelivery", messageId));
        assertEquals(0, queryLong("SELECT count(*) FROM " + TestDatabase.SCHEMA + ".commit_guard WHERE order_id = ?",
                orderId));
    }

    @Test
    void aRedeliveryAfterALostAcknowledgementIsADuplicate() {
        String orderId = newOrderId();
        String messageId = Broker.send("redelivery", Map.of(Orders.ORDER_ID, orderId));
        Broker.awaitDrained("redelivery", DRAIN);
        assertEquals(1, invoices("redelivery", orderId));
        assertEquals(1, markers(INBOX, "redelivery", messageId));

        // The same message again, JMSMessageID and all: as if its transaction had committed but the acknowledgement
        // had never reached the broker.
        long added = Broker.added("redelivery");
        Broker.resend("redelivery", messageId, Map.of(Orders.ORDER_ID, orderId));
        assertEquals(added + 1, Broker.added("redelivery"), "the copy reached the queue");
        Broker.awaitDrained("redelivery", DRAIN);
        assertEquals(0, Broker.count(ArtemisSession.DEAD_LETTER_QUEUE, "orderId = '" + orderId + "'"),
                "the copy was acknowledged as a duplicate, not dead-lettered");
        assertEquals(1, handlerCalls("redelivery", orderId), "the copy did not reach the handler");
        assertEquals(1, invoices("redelivery", orderId));
        assertEquals(1, markers(INBOX, "redelivery", messageId));
    }

    @Test
    void aSkippedMessageLeavesAMarkerAndNoInvoiceAndIsNotHandledAgain() {
        String orderId = newOrderId();
        Broker.send("service", Map.of(Orders.ORDER_ID, orderId, Orders.BEHAVIOUR, "skip"));
        Broker.awaitDrained("service", DRAIN);
        assertEquals(1, markers(INBOX, "service", orderId));
        assertEquals(0, invoices("service", orderId));
        assertEquals(1, handlerCalls("service", orderId));

        Broker.send("service", Map.of(Orders.ORDER_ID, orderId, Orders.BEHAVIOUR, "skip"));
        Broker.awaitDrained("service", DRAIN);
        assertEquals(1, handlerCalls("service", orderId), "the second copy did not reach the handler");
        assertEquals(0, invoices("service", orderId));
    }

    @Test
    void aMessageWithoutItsKeyIsNotProcessedAndEndsInTheDeadLetterQueue() {
        String testId = UUID.randomUUID().toString();
        long invoicesBefore = queryLong("SELECT count(*) FROM " + TestDatabase.SCHEMA + ".invoice");
        long markersBefore = queryLong("SELECT count(*) FROM " + INBOX);

        Broker.send("orders", Map.of("testId", testId));
        Broker.awaitDrained("orders", DRAIN);

        assertEquals(1, Broker.count(ArtemisSession.DEAD_LETTER_QUEUE, "testId = '" + testId + "'"),
                "dead-lettered after " + ArtemisSession.MAX_DELIVERY_ATTEMPTS + " attempts");
        assertEquals(invoicesBefore, queryLong("SELECT count(*) FROM " + TestDatabase.SCHEMA + ".invoice"));
        assertEquals(markersBefore, queryLong("SELECT count(*) FROM " + INBOX));
    }

    @Test
    void twoConsumersInTwoScopesEachProcessTheSameOrderOnce() {
        String orderId = newOrderId();
        for (int i = 0; i < 2; i++) {
            Broker.send("orders", Map.of(Orders.ORDER_ID, orderId));
            Broker.send("audit", Map.of(Orders.ORDER_ID, orderId));
        }
        Broker.awaitDrained("orders", DRAIN);
        Broker.awaitDrained("audit", DRAIN);

        assertEquals(1, invoices("orders", orderId));
        assertEquals(1, invoices("audit", orderId));
        assertEquals(1, markers(INBOX, OrdersListener.class.getName(), orderId));
        assertEquals(1, markers(INBOX, AuditListener.class.getName(), orderId));
    }
}
