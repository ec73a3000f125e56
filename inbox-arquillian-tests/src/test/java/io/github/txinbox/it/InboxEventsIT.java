package io.github.txinbox.it;

import static io.github.txinbox.it.app.TestDatabase.newOrderId;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.txinbox.Inbox;
import io.github.txinbox.InboxEvent;
import io.github.txinbox.InboxOutcome;
import io.github.txinbox.InboxResult;
import io.github.txinbox.InboxRetryException;
import io.github.txinbox.MessageIdResolver;
import io.github.txinbox.it.app.TestDatabase;
import io.github.txinbox.it.harness.Deployments;
import io.github.txinbox.it.messaging.OrderIdResolver;
import io.github.txinbox.it.messaging.OrderService;
import io.github.txinbox.it.messaging.Orders;
import jakarta.annotation.Priority;
import jakarta.annotation.Resource;
import jakarta.ejb.EJB;
import jakarta.ejb.EJBException;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.enterprise.event.TransactionPhase;
import jakarta.inject.Inject;
import jakarta.interceptor.InvocationContext;
import jakarta.transaction.Status;
import jakarta.transaction.TransactionSynchronizationRegistry;
import jakarta.transaction.Transactional;
import jakarta.transaction.UserTransaction;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Every call of the interceptor reaches the application as an {@link InboxEvent} once its transaction has ended, with
 * what it ended with, seen here by a synchronous observer, which also notes that the transaction had ended.
 */
@Tag("portable")
@ExtendWith(ArquillianExtension.class)
class InboxEventsIT {

    private static final String SCOPE = OrderService.DIRECT_SCOPE;
    private static final String METHOD = OrderService.class.getName() + ".place";
    private static final String FAILING_OBSERVER = "observer-fails-";

    @Deployment
    static WebArchive deployment() {
        return Deployments.war(InboxEventsIT.class, Orders.class, OrderService.class, OrderIdResolver.class);
    }

    /** An event, and the status of the transaction its observer ran in. */
    public record Seen(InboxEvent event, int transactionStatus) {
    }

    /** Records every event, first among the observers. */
    @ApplicationScoped
    public static class Recorder {

        private final List<Seen> seen = new CopyOnWriteArrayList<>();

        @Resource(lookup = "java:comp/TransactionSynchronizationRegistry")
        TransactionSynchronizationRegistry transactions;

        void record(@Observes @Priority(1) InboxEvent event) {
            seen.add(new Seen(event, transactions.getTransactionStatus()));
        }

        List<Seen> take() {
            List<Seen> taken = new ArrayList<>(seen);
            seen.clear();
            return taken;
        }
    }

    /** Fails on the orders whose id says so, after the recorder has seen them. */
    @ApplicationScoped
    public static class FailingObserver {

        void fail(@Observes @Priority(2) InboxEvent event) {
            if (event.messageId() != null && event.messageId().startsWith(FAILING_OBSERVER)) {
                throw new IllegalStateException("an observer's own failure");
            }
        }
    }

    /**
     * Notes the events that reached the observers of the phases after success and after failure, with the status of
     * the transaction when each observer ran.
     */
    @ApplicationScoped
    public static class AfterCompletion {

        private final List<Seen> committed = new CopyOnWriteArrayList<>();
        private final List<Seen> rolledBack = new CopyOnWriteArrayList<>();

        @Resource(lookup = "java:comp/TransactionSynchronizationRegistry")
        TransactionSynchronizationRegistry transactions;

        void committed(@Observes(during = TransactionPhase.AFTER_SUCCESS) InboxEvent event) {
            committed.add(new Seen(event, transactions.getTransactionStatus()));
        }

        void rolledBack(@Observes(during = TransactionPhase.AFTER_FAILURE) InboxEvent event) {
            rolledBack.add(new Seen(event, transactions.getTransactionStatus()));
        }

        List<Seen> committed(String orderId) {
            return committed.stream().filter(seen -> orderId.equals(seen.event().messageId())).toList();
        }

        List<Seen> rolledBack(String orderId) {
            return rolledBack.stream().filter(seen -> orderId.equals(seen.event().messageId())).toList();
        }
    }

    /** A resolver that cannot read the id, as a message whose property throws a JMSException. */
    @ApplicationScoped
    public static class UnreadableIds implements MessageIdResolver {

        @Override
        public String messageId(InvocationContext invocation) {
            throw new IllegalStateException("the id could not be read");
        }
    }

    /** A transactional bean whose id cannot be read. */
    @ApplicationScoped
    @Transactional
    public static class UnreadableHandler {

        static final String SCOPE = "unreadable";

        @Inbox(scope = SCOPE, resolver = UnreadableIds.class)
        public void handle(String orderId) {
            Orders.recordCall(SCOPE, orderId, 1);
        }
    }

    /**
     * A transactional CDI bean whose {@code @Inbox} method asks for a retry: whether its call returns the retry or
     * throws it depends on whether its transaction is its caller's, which the noting interceptor tells.
     */
    @ApplicationScoped
    @Transactional
    public static class RetryingHandler {

        static final String SCOPE = "noted";

        @Inbox(scope = SCOPE, resolver = OrderIdResolver.class)
        public InboxResult handle(String orderId) {
            return InboxResult.retry("the stock service is down");
        }
    }

    @EJB
    OrderService service;

    @Inject
    RetryingHandler retrying;

    @Inject
    UserTransaction userTransaction;

    @Inject
    AfterCompletion afterCompletion;

    @Inject
    Recorder recorder;

    @Inject
    UnreadableHandler unreadable;

    @BeforeEach
    void forgetEarlierEvents() {
        recorder.take();
    }

    private Seen only() {
        List<Seen> seen = recorder.take();
        assertEquals(1, seen.size(), seen.toString());
        return seen.get(0);
    }

    private static void assertEvent(Seen seen, String orderId, InboxOutcome outcome, String reason) {
        assertEquals(SCOPE, seen.event().scope());
        assertEquals(orderId, seen.event().messageId());
        assertEquals(outcome, seen.event().outcome());
        assertEquals(reason, seen.event().reason());
        assertEquals(METHOD, seen.event().method());
        assertEnded(seen);
    }

    /** The observer ran once the transaction had ended: nothing it could see was still active or marked. */
    private static void assertEnded(Seen seen) {
        assertTrue(seen.transactionStatus() != Status.STATUS_ACTIVE
                && seen.transactionStatus() != Status.STATUS_MARKED_ROLLBACK,
                "the observer ran in a transaction still going on, status " + seen.transactionStatus());
    }


    @Test
    void processedThenDuplicateInsideTheActiveTransaction() {
        String orderId = newOrderId();
        assertEquals(InboxResult.processed(), service.place(orderId, "process"));
        assertEvent(only(), orderId, InboxOutcome.PROCESSED, null);
        assertEquals(InboxResult.duplicate(), service.place(orderId, "process"));
        assertEvent(only(), orderId, InboxOutcome.DUPLICATE, null);
    }

    @Test
    void theDurationCoversTheMethod() {
        String orderId = newOrderId();
        service.place(orderId, "slow");
        Seen seen = only();
        assertEvent(seen, orderId, InboxOutcome.PROCESSED, null);
        assertTrue(seen.event().duration().compareTo(Duration.ofMillis(OrderService.SLOW_MILLIS)) >= 0,
                "the method took " + OrderService.SLOW_MILLIS + " ms, the event says " + seen.event().duration());
    }

    @Test
    void skippedWithItsReason() {
        String orderId = newOrderId();
        service.place(orderId, "skip");
        assertEvent(only(), orderId, InboxOutcome.SKIPPED, "not for us");
    }

    @Test
    void retriesReturnedOrThrownInTheBeansOwnTransactionAreThrown() {
        String orderId = newOrderId();
        assertThrows(EJBException.class, () -> service.place(orderId, "retry"));
        assertEvent(only(), orderId, InboxOutcome.RETRY, "try again later");
        assertThrows(EJBException.class, () -> service.place(orderId, "retry-exception"));
        assertEvent(only(), orderId, InboxOutcome.RETRY, "try again later");
    }

    @Test
    void aCdiBeansRetryIsReturnedInItsCallersTransactionAndThrownInItsOwn() throws Exception {
        String orderId = newOrderId();
        userTransaction.begin();
        try {
            // The caller's transaction, noted on the way in: the retry is returned, and the transaction marked.
            assertEquals(InboxOutcome.RETRY, retrying.handle(orderId).outcome());
            assertEquals(Status.STATUS_MARKED_ROLLBACK, userTransaction.getStatus());
        } finally {
            userTransaction.rollback();
        }
        assertEquals(InboxOutcome.RETRY, only().event().outcome());
        // Without a caller's transaction, @Transactional begins the call's own, which ends as it returns: thrown.
        RuntimeException thrown = assertThrows(RuntimeException.class, () -> retrying.handle(orderId));
        assertTrue(thrown instanceof InboxRetryException || thrown.getCause() instanceof InboxRetryException,
                thrown::toString);
        assertEquals(InboxOutcome.RETRY, only().event().outcome());
    }

    @Test
    void aCallThatReturnedWithItsTransactionMarkedForRollbackIsRolledBackNotProcessed() {
        String orderId = newOrderId();
        assertThrows(EJBException.class, () -> service.place(orderId, "rollback-only"));
        assertEvent(only(), orderId, InboxOutcome.ROLLED_BACK,
                "PROCESSED decided, but the method returned with its transaction marked for rollback");
    }

    @Test
    void aFailureWithTheExceptionAsItsReason() {
        String orderId = newOrderId();
        assertThrows(EJBException.class, () -> service.place(orderId, "fail"));
        assertEvent(only(), orderId, InboxOutcome.FAILURE,
                "java.lang.IllegalStateException: failed to place " + orderId);
    }

    @Test
    void aMethodThatReturnsDuplicateFailsAndNothingCommits() {
        String orderId = newOrderId();
        EJBException e = assertThrows(EJBException.class, () -> service.place(orderId, "duplicate"));
        String expected = "java.lang.IllegalStateException: @Inbox " + METHOD + " returned DUPLICATE, which only the "
                + "inbox returns; a method returns InboxResult.processed(), skipped(reason) or retry(reason). The "
                + "transaction is rolled back";
        assertEvent(only(), orderId, InboxOutcome.FAILURE, expected);
        assertEquals(0, TestDatabase.queryLong("SELECT count(*) FROM " + TestDatabase.SCHEMA
                + ".invoice WHERE orderid = ?", orderId), "the invoice rolled back: " + e);
        assertEquals(InboxResult.processed(), service.place(orderId, "process"), "the marker rolled back too");
        assertEvent(only(), orderId, InboxOutcome.PROCESSED, null);
    }

    @Test
    void aMissingIdWithoutAnId() {
        assertThrows(EJBException.class, () -> service.place(null, "process"));
        Seen seen = only();
        assertEquals(InboxOutcome.MISSING_ID, seen.event().outcome());
        assertNull(seen.event().messageId());
        assertTrue(seen.event().reason().contains("the resolver " + "io.github.txinbox.it.messaging.OrderIdResolver"
                + " returned none"), seen.event().reason());
        assertEnded(seen);
    }

    @Test
    void aFailureToReadTheIdIsAFailureNotAMissingId() {
        String orderId = newOrderId();
        RuntimeException e = assertThrows(RuntimeException.class, () -> unreadable.handle(orderId));
        Seen seen = only();
        assertEquals(InboxOutcome.FAILURE, seen.event().outcome(), String.valueOf(e));
        assertNull(seen.event().messageId());
        assertEquals(UnreadableHandler.SCOPE, seen.event().scope());
        assertEquals("java.lang.IllegalStateException: the id could not be read", seen.event().reason());
        assertEnded(seen);
        assertEquals(0, TestDatabase.handlerCalls(orderId), "the method did not run");
    }

    /**
     * The event is fired after the transaction ended, so the container calls a transaction-phase observer at once, as
     * for any event fired outside a transaction: the outcome, not the phase, says what committed.
     */
    @Test
    void transactionPhaseObserversAreCalledAtOnceWithTheEndedOutcome() {
        String processed = newOrderId();
        service.place(processed, "process");
        List<Seen> committed = afterCompletion.committed(processed);
        assertEquals(List.of(InboxOutcome.PROCESSED), committed.stream().map(seen -> seen.event().outcome()).toList());
        assertEnded(committed.get(0));
        String rolledBack = newOrderId();
        assertThrows(EJBException.class, () -> service.place(rolledBack, "rollback-only"));
        assertEquals(List.of(InboxOutcome.ROLLED_BACK),
                afterCompletion.rolledBack(rolledBack).stream().map(seen -> seen.event().outcome()).toList());
    }

    @Test
    void aFailingObserverChangesNothing() {
        String orderId = FAILING_OBSERVER + UUID.randomUUID();
        assertEquals(InboxResult.processed(), service.place(orderId, "process"));
        assertEvent(only(), orderId, InboxOutcome.PROCESSED, null);
        assertEquals(1, TestDatabase.queryLong("SELECT count(*) FROM " + TestDatabase.SCHEMA
                + ".invoice WHERE orderid = ?", orderId), "the order was invoiced and committed");
    }
}
