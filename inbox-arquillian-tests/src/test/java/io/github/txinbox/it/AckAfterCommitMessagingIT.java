package io.github.txinbox.it;

import static io.github.txinbox.it.app.TestDatabase.INBOX;
import static io.github.txinbox.it.app.TestDatabase.handlerCalls;
import static io.github.txinbox.it.app.TestDatabase.invoices;
import static io.github.txinbox.it.app.TestDatabase.markers;
import static io.github.txinbox.it.app.TestDatabase.newOrderId;
import static io.github.txinbox.it.app.TestDatabase.queryLong;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.txinbox.it.app.TestDatabase;
import io.github.txinbox.it.harness.ArtemisSession;
import io.github.txinbox.it.harness.Await;
import io.github.txinbox.it.harness.Deployments;
import io.github.txinbox.it.harness.Messages;
import io.github.txinbox.it.harness.Server;
import io.github.txinbox.it.messaging.Orders;
import io.github.txinbox.it.portable.AckAfterCommitHandler;
import io.github.txinbox.it.portable.AckAfterCommitListener;
import java.net.URL;
import java.time.Duration;
import java.util.Map;
import java.util.UUID;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.arquillian.test.api.ArquillianResource;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The result rules in the set-up that acknowledges after the commit, on each server's own broker: a message-driven
 * bean without a transaction ({@link AckAfterCommitListener}) calls a {@code @Transactional} CDI bean whose method
 * carries {@code @Inbox} ({@link AckAfterCommitHandler}). The broker's delivery is in no transaction: the broker
 * learns of a retry or a failure only by the exception that leaves {@code onMessage}, and must then redeliver with
 * its delay and dead-letter after its attempts. Nothing is ever prepared.
 */
@Tag("portable")
@ExtendWith(ArquillianExtension.class)
class AckAfterCommitMessagingIT {

    private static final Duration WAIT = Duration.ofSeconds(60);

    private static final String SCOPE = AckAfterCommitHandler.SCOPE;

    private static final String QUEUE = AckAfterCommitListener.QUEUE;

    @Deployment(testable = false)
    static WebArchive deployment() {
        return Deployments.withMessaging(Deployments.war(AckAfterCommitMessagingIT.class));
    }

    @ArquillianResource
    URL url;

    private Messages messages;

    @BeforeEach
    void reachTheDeployment() {
        messages = Messages.of(url);
    }

    @AfterEach
    void nothingPreparedNothingLeftOnTheQueue() {
        Await.until(WAIT, "the queue " + QUEUE + " to be empty", () -> messages.queued(QUEUE) == 0);
        assertEquals(0, TestDatabase.preparedTransactions(), "PostgreSQL holds no prepared transaction");
    }

    /**
     * The deliveries of a message of the queue before it is dead-lettered: on Payara the test broker's, sized for a
     * crash ({@link ArtemisSession#ACK_DELIVERY_ATTEMPTS}); on the servers whose broker runs inside them, the leg's
     * usual attempts.
     */
    private static int attempts() {
        return Server.current().usesTestBroker() ? ArtemisSession.ACK_DELIVERY_ATTEMPTS
                : ArtemisSession.MAX_DELIVERY_ATTEMPTS;
    }

    private static long decisions(String orderId, String outcome) {
        return TestDatabase.decisions(SCOPE, orderId, outcome);
    }

    private static void awaitCommitted(String orderId) {
        Await.until(WAIT, "the commit of " + orderId, () -> markers(INBOX, SCOPE, orderId) == 1);
    }

    private void send(String orderId, String behaviour, int copies) {
        messages.send(QUEUE, behaviour == null ? Map.of(Orders.ORDER_ID, orderId)
                : Map.of(Orders.ORDER_ID, orderId, Orders.BEHAVIOUR, behaviour), copies);
    }

    /** The milliseconds between the first and the second call of the handler for an order. */
    private static long millisBetweenTheFirstTwoCalls(String orderId) {
        return queryLong("SELECT (extract(epoch FROM max(at) - min(at)) * 1000)::bigint FROM (SELECT at FROM "
                + TestDatabase.SCHEMA + ".handler_call WHERE consumer = ? AND order_id = ? ORDER BY at LIMIT 2) c",
                SCOPE, orderId);
    }

    /**
     * Prints, for the record of each server leg, the JMSXDeliveryCount each handler call of an order saw and the
     * milliseconds since the call before: what the broker does with the count when an exception leaves onMessage.
     */
    private static void recordDeliveries(String test, String orderId) {
        System.out.println("[ack-after-commit] " + Server.current() + " " + test + ": "
                + TestDatabase.deliveries(SCOPE, orderId));
    }

    @Test
    void threeCopiesOfOneOrderAreInvoicedOnceAndAllAcknowledged() {
        String orderId = newOrderId();
        send(orderId, null, 3);
        Await.until(WAIT, "3 decisions on " + orderId,
                () -> decisions(orderId, "PROCESSED") + decisions(orderId, "DUPLICATE") == 3);
        awaitCommitted(orderId);

        assertEquals(1, decisions(orderId, "PROCESSED"));
        assertEquals(2, decisions(orderId, "DUPLICATE"));
        assertEquals(1, invoices(SCOPE, orderId));
        assertEquals(1, handlerCalls(SCOPE, orderId), "the handler ran once");
    }

    @Test
    void twentyConcurrentCopiesOfOneOrderAreInvoicedOnce() {
        String orderId = newOrderId();
        send(orderId, null, 20);
        Await.until(WAIT, "20 decisions on " + orderId,
                () -> decisions(orderId, "PROCESSED") + decisions(orderId, "DUPLICATE") == 20);
        awaitCommitted(orderId);

        assertEquals(1, decisions(orderId, "PROCESSED"));
        assertEquals(1, invoices(SCOPE, orderId));
        assertEquals(1, handlerCalls(SCOPE, orderId), "the handler ran once");
        assertEquals(0, messages.deadLettered(Orders.ORDER_ID, orderId));
    }

    @Test
    void aRetryLeavesOnMessageAndTheBrokerRedeliversAfterItsDelay() {
        String orderId = newOrderId();
        send(orderId, "retry-first", 1);
        Await.until(WAIT, "the redelivery of " + orderId, () -> decisions(orderId, "PROCESSED") == 1);
        awaitCommitted(orderId);

        assertEquals(1, decisions(orderId, "RETRY"));
        assertEquals(2, handlerCalls(SCOPE, orderId), "the redelivery ran the handler again");
        assertEquals(1, invoices(SCOPE, orderId), "the first attempt's invoice rolled back");
        recordDeliveries("retry-first", orderId);
        if (Server.current().brokerDelaysRedelivery()) {
            long apart = millisBetweenTheFirstTwoCalls(orderId);
            assertTrue(apart >= ArtemisSession.REDELIVERY_DELAY_MS - 50,
                    "the broker waited its redelivery delay (" + ArtemisSession.REDELIVERY_DELAY_MS + " ms) before "
                            + "the redelivery, not " + apart + " ms");
        }
    }

    @Test
    void aFailureRollsBackAndTheRedeliveryIsProcessedOnce() {
        String orderId = newOrderId();
        send(orderId, "fail-first", 1);
        Await.until(WAIT, "the redelivery of " + orderId, () -> decisions(orderId, "PROCESSED") == 1);
        awaitCommitted(orderId);

        recordDeliveries("fail-first", orderId);
        assertEquals(1, decisions(orderId, "FAILURE"));
        assertEquals(2, handlerCalls(SCOPE, orderId));
        assertEquals(1, invoices(SCOPE, orderId));
        assertEquals(0, messages.deadLettered(Orders.ORDER_ID, orderId));
    }

    @Test
    void aFailureOnEveryDeliveryIsDeadLetteredAfterTheBrokersAttempts() {
        String orderId = newOrderId();
        send(orderId, "fail-always", 1);
        Await.until(WAIT, orderId + " to be dead-lettered", () -> messages.deadLettered(Orders.ORDER_ID, orderId) == 1);
        recordDeliveries("fail-always", orderId);

        assertEquals(attempts(), handlerCalls(SCOPE, orderId), "one call per delivery");
        Await.count(WAIT, "FAILURE decisions", attempts(), () -> decisions(orderId, "FAILURE"));
        assertEquals(0, invoices(SCOPE, orderId));
        assertEquals(0, markers(INBOX, SCOPE, orderId));
    }

    @Test
    void aFailedCommitIsNotAcknowledgedAndTheRedeliveryIsProcessedOnce() {
        String orderId = newOrderId();
        send(orderId, "fail-commit-first", 1);
        // The first attempt is decided PROCESSED, then its commit fails on the deferred foreign key: it is reported
        // rolled back, and only the redelivery processed.
        Await.until(WAIT, "the redelivery of " + orderId, () -> decisions(orderId, "PROCESSED") == 1);
        awaitCommitted(orderId);
        recordDeliveries("fail-commit-first", orderId);

        assertEquals(1, decisions(orderId, "ROLLED_BACK"), "the failed commit is reported as what it was");

        assertEquals(2, handlerCalls(SCOPE, orderId), "the failed commit's message came again");
        assertEquals(1, invoices(SCOPE, orderId));
        assertEquals(0, messages.deadLettered(Orders.ORDER_ID, orderId));
    }

    @Test
    void aSkippedMessageLeavesAMarkerAndNoInvoiceAndItsCopyIsADuplicate() {
        String orderId = newOrderId();
        send(orderId, "skip", 1);
        Await.until(WAIT, "the skip of " + orderId, () -> decisions(orderId, "SKIPPED") == 1);
        awaitCommitted(orderId);
        send(orderId, "skip", 1);
        Await.until(WAIT, "the copy of " + orderId, () -> decisions(orderId, "DUPLICATE") == 1);

        assertEquals(1, handlerCalls(SCOPE, orderId), "the copy did not reach the method");
        assertEquals(0, invoices(SCOPE, orderId));
    }

    @Test
    void aMessageWithoutItsKeyIsNeverProcessedAndEndsDeadLettered() {
        String testId = UUID.randomUUID().toString();
        long missingBefore = queryLong("SELECT count(*) FROM " + TestDatabase.SCHEMA
                + ".inbox_decision WHERE scope = ? AND outcome = 'MISSING_ID'", SCOPE);

        messages.send(QUEUE, Map.of("testId", testId), 1);
        Await.until(WAIT, "the message to be dead-lettered", () -> messages.deadLettered("testId", testId) == 1);

        Await.count(WAIT, "MISSING_ID decisions, one per delivery", attempts(), () -> queryLong("SELECT count(*) FROM "
                + TestDatabase.SCHEMA + ".inbox_decision WHERE scope = ? AND outcome = 'MISSING_ID'", SCOPE)
                - missingBefore);
    }
}
