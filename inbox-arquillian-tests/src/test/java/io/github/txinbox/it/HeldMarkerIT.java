package io.github.txinbox.it;

import static io.github.txinbox.it.app.TestDatabase.INBOX;
import static io.github.txinbox.it.app.TestDatabase.decisions;
import static io.github.txinbox.it.app.TestDatabase.handlerCalls;
import static io.github.txinbox.it.app.TestDatabase.invoices;
import static io.github.txinbox.it.app.TestDatabase.markers;
import static io.github.txinbox.it.app.TestDatabase.newOrderId;
import static io.github.txinbox.it.app.TestDatabase.queryLong;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.txinbox.InboxSettings;
import io.github.txinbox.it.app.TestDatabase;
import io.github.txinbox.it.harness.Await;
import io.github.txinbox.it.harness.Deployments;
import io.github.txinbox.it.harness.HeldMarker;
import io.github.txinbox.it.harness.Messages;
import io.github.txinbox.it.harness.Server;
import io.github.txinbox.it.messaging.Orders;
import io.github.txinbox.it.portable.AckAfterCommitHandler;
import io.github.txinbox.it.portable.AckAfterCommitListener;
import io.github.txinbox.it.portable.PortableOrdersListener;
import java.net.URL;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;
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
 * A marker held by a transaction that does not end, as one left prepared by a crash, stalls nothing: each delivery of
 * its message waits at most {@code txinbox.claim.max-wait} ({@link HeldMarker#CLAIM_MAX_WAIT} here) in its claim, is
 * decided {@code HELD}, rolls back and comes again, while the other orders of the queue are invoiced; the held
 * transaction's end then decides the message. The transaction is prepared on the legs whose database allows it (XA),
 * and open on the others. Once with the message-driven bean in the container's transaction (the queue
 * {@value PortableOrdersListener#QUEUE}), once acknowledged after the commit (the queue
 * {@value AckAfterCommitListener#QUEUE}).
 */
@Tag("portable")
@ExtendWith(ArquillianExtension.class)
class HeldMarkerIT {

    private static final Duration WAIT = Duration.ofSeconds(60);

    /** The other orders sent behind the held one. */
    private static final int OTHERS = 12;

    /** How much longer than the bound a held delivery may take to be decided: its rollback is not in it. */
    private static final long SLACK_MS = 1_500;

    @Deployment(testable = false)
    static WebArchive deployment() {
        WebArchive war = Deployments.withMessaging(Deployments.war(HeldMarkerIT.class));
        Deployments.withSettings(war, InboxSettings.CLAIM_MAX_WAIT + "=" + HeldMarker.CLAIM_MAX_WAIT);
        return war;
    }

    @ArquillianResource
    URL url;

    private Messages messages;

    @BeforeEach
    void reachTheDeployment() {
        messages = Messages.of(url);
    }

    @AfterEach
    void nothingPreparedNothingLeftOnTheQueues() {
        for (String queue : new String[] {PortableOrdersListener.QUEUE, AckAfterCommitListener.QUEUE}) {
            Await.until(WAIT, "the queue " + queue + " to be empty", () -> messages.queued(queue) == 0);
        }
        assertEquals(0, TestDatabase.preparedTransactions(), "PostgreSQL holds no prepared transaction");
    }

    @Test
    void inTheContainersTransactionAHeldMarkerStallsNothingAndItsCommitMakesTheMessageADuplicate() {
        String scope = PortableOrdersListener.class.getName();
        String consumer = PortableOrdersListener.CONSUMER;
        String held = newOrderId();
        try (HeldMarker marker = HeldMarker.hold(scope, consumer, held)) {
            whileHeldTheQueueFlows(PortableOrdersListener.QUEUE, scope, consumer, held);

            marker.commit();
            Await.until(WAIT, "the duplicate of " + held, () -> decisions(scope, held, "DUPLICATE") == 1);
        }
        assertEquals(0, decisions(scope, held, "PROCESSED"));
        assertEquals(0, handlerCalls(consumer, held), "the handler never ran: the held transaction did the work");
        assertEquals(1, invoices(consumer, held));
        assertEquals(0, messages.deadLettered(Orders.ORDER_ID, held));
    }

    @Test
    void acknowledgedAfterTheCommitAHeldMarkerStallsNothingAndItsRollbackLetsTheMessageBeProcessedOnce() {
        String scope = AckAfterCommitHandler.SCOPE;
        String held = newOrderId();
        try (HeldMarker marker = HeldMarker.hold(scope, scope, held)) {
            whileHeldTheQueueFlows(AckAfterCommitListener.QUEUE, scope, scope, held);

            marker.rollBack();
            Await.until(WAIT, "the commit of " + held, () -> markers(INBOX, scope, held) == 1);
        }
        Await.count(WAIT, "PROCESSED decisions on " + held, 1, () -> decisions(scope, held, "PROCESSED"));
        assertEquals(0, decisions(scope, held, "DUPLICATE"));
        assertEquals(1, handlerCalls(scope, held), "the handler ran once, after the rollback");
        assertEquals(1, invoices(scope, held), "the held transaction's invoice rolled back, the handler's committed");
        assertEquals(0, messages.deadLettered(Orders.ORDER_ID, held));
    }

    /**
     * Sends the held order, then others behind it on the same queue, and checks, with the marker still held, that
     * the others are all invoiced without a retry, and that every delivery of the held order was decided
     * {@code HELD} within the bound, the handler not run.
     */
    private void whileHeldTheQueueFlows(String queue, String scope, String consumer, String held) {
        messages.send(queue, Map.of(Orders.ORDER_ID, held), 1);
        List<String> others = IntStream.range(0, OTHERS).mapToObj(i -> newOrderId()).toList();
        others.forEach(order -> messages.send(queue, Map.of(Orders.ORDER_ID, order), 1));

        Await.until(WAIT, "the " + OTHERS + " other orders to be invoiced",
                () -> others.stream().allMatch(order -> invoices(consumer, order) == 1));
        Await.until(WAIT, "a delivery of " + held + " to give up its claim", () -> decisions(scope, held, "HELD") > 0);

        for (String order : others) {
            // Reported once committed, which the invoice can show a moment before.
            Await.count(WAIT, "PROCESSED decisions on " + order + ", processed at its first delivery", 1,
                    () -> decisions(scope, order, "PROCESSED"));
            assertEquals(0, queryLong("SELECT count(*) FROM " + TestDatabase.SCHEMA + ".inbox_decision WHERE scope = ? "
                    + "AND message_id = ? AND outcome <> 'PROCESSED'", scope, order), order + " had no other decision");
        }
        long bound = HeldMarker.CLAIM_MAX_WAIT.toMillis();
        long shortest = heldMillis("min", scope, held);
        long longest = heldMillis("max", scope, held);
        System.out.println("[held-marker] " + Server.current() + " " + queue + ": " + decisions(scope, held, "HELD")
                + " deliveries held, each decided after " + shortest + " to " + longest + " ms (bound " + bound
                + " ms)");
        assertTrue(shortest >= bound - 50, "a held delivery waited the bound, not " + shortest + " ms");
        assertTrue(longest <= bound + SLACK_MS, "a held delivery was decided within the bound, not after " + longest
                + " ms");
        assertEquals(0, handlerCalls(consumer, held), "the handler did not run while the marker was held");
        assertEquals(0, decisions(scope, held, "PROCESSED") + decisions(scope, held, "DUPLICATE"));
        assertEquals(0, messages.deadLettered(Orders.ORDER_ID, held));
    }

    private static long heldMillis(String aggregate, String scope, String held) {
        return queryLong("SELECT " + aggregate + "(millis) FROM " + TestDatabase.SCHEMA + ".inbox_decision "
                + "WHERE scope = ? AND message_id = ? AND outcome = 'HELD'", scope, held);
    }
}
