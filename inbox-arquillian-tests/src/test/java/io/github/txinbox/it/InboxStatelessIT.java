package io.github.txinbox.it;

import static io.github.txinbox.it.app.TestDatabase.INBOX;
import static io.github.txinbox.it.app.TestDatabase.handlerCalls;
import static io.github.txinbox.it.app.TestDatabase.invoices;
import static io.github.txinbox.it.app.TestDatabase.markers;
import static io.github.txinbox.it.app.TestDatabase.newOrderId;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.txinbox.InboxResult;
import io.github.txinbox.InboxRetryException;
import io.github.txinbox.InboxRolledBackException;
import io.github.txinbox.MissingMessageIdException;
import io.github.txinbox.NoActiveTransactionException;
import io.github.txinbox.it.app.Transactions;
import io.github.txinbox.it.harness.Deployments;
import io.github.txinbox.it.messaging.OrderIdResolver;
import io.github.txinbox.it.messaging.OrderService;
import io.github.txinbox.it.messaging.Orders;
import io.github.txinbox.it.messaging.InboxService;
import io.github.txinbox.it.messaging.PlainService;
import io.github.txinbox.it.messaging.StereotypedService;
import jakarta.annotation.Resource;
import jakarta.ejb.EJB;
import jakarta.ejb.EJBException;
import jakarta.inject.Inject;
import jakarta.transaction.Status;
import jakarta.transaction.UserTransaction;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The result rules on business methods that are not message listeners: a stateless bean's methods in their
 * container-managed transactions (REQUIRED), with the id from a {@code MessageIdResolver}, and a plain CDI bean
 * that relies on its caller's transaction.
 */
@Tag("portable")
@ExtendWith(ArquillianExtension.class)
class InboxStatelessIT {

    private static final String SCOPE = OrderService.DIRECT_SCOPE;

    @Deployment
    static WebArchive deployment() {
        return Deployments.war(InboxStatelessIT.class, Orders.class, OrderService.class, OrderIdResolver.class,
                PlainService.class, InboxService.class, StereotypedService.class);
    }

    @EJB
    OrderService service;

    @Inject
    PlainService plain;

    @Inject
    StereotypedService stereotyped;

    @Resource(lookup = "java:comp/UserTransaction")
    UserTransaction transaction;




    @Test
    void processedThenDuplicate() {
        String orderId = newOrderId();
        assertEquals(InboxResult.processed(), service.place(orderId, "process"));
        assertEquals(InboxResult.duplicate(), service.place(orderId, "process"));
        assertEquals(1, handlerCalls(orderId), "the duplicate did not invoke the method");
        assertEquals(1, invoices(orderId));
        assertEquals(1, markers(INBOX, SCOPE, orderId));
    }

    @Test
    void aStereotypeCarriesInboxAndItsScope() {
        String orderId = newOrderId();
        assertEquals(InboxResult.processed(), stereotyped.place(orderId));
        assertEquals(InboxResult.duplicate(), stereotyped.place(orderId));
        assertEquals(1, handlerCalls(orderId), "the duplicate did not invoke the method");
        assertEquals(1, markers(INBOX, StereotypedService.SCOPE, orderId));
    }

    @Test
    void skippedCommitsTheMarkerSoTheNextCallIsADuplicate() {
        String orderId = newOrderId();
        assertEquals(InboxResult.skipped("not for us"), service.place(orderId, "skip"));
        assertEquals(1, markers(INBOX, SCOPE, orderId));
        assertEquals(InboxResult.duplicate(), service.place(orderId, "process"));
        assertEquals(1, handlerCalls(orderId));
        assertEquals(0, invoices(orderId));
    }

    @Test
    void aReturnedRetryInTheBeansOwnTransactionIsThrownAndRollsBackWritesAndMarker() {
        String orderId = newOrderId();
        // The container began the transaction for this call and ends it as the call returns: a normal return would
        // tell a caller without a transaction that the message was handled.
        EJBException e = assertThrows(EJBException.class, () -> service.place(orderId, "retry"));
        assertTrue(e.getCause() instanceof InboxRetryException, String.valueOf(e.getCause()));
        assertEquals("try again later", e.getCause().getMessage());
        assertEquals(0, invoices(orderId));
        assertEquals(0, markers(INBOX, SCOPE, orderId));

        assertEquals(InboxResult.processed(), service.place(orderId, "process"), "the retry is processed");
        assertEquals(1, invoices(orderId));
        assertEquals(2, handlerCalls(orderId));
    }

    @Test
    void aThrownRetryInTheBeansOwnTransactionLeavesTheCallAndRollsBack() {
        String orderId = newOrderId();
        EJBException e = assertThrows(EJBException.class, () -> service.place(orderId, "retry-exception"));
        assertTrue(e.getCause() instanceof InboxRetryException, String.valueOf(e.getCause()));
        assertEquals(0, invoices(orderId));
        assertEquals(0, markers(INBOX, SCOPE, orderId));
    }

    @Test
    void aMethodThatMarksItsOwnTransactionForRollbackAndReturnsThrowsAndNothingCommits() {
        String orderId = newOrderId();
        EJBException e = assertThrows(EJBException.class, () -> service.place(orderId, "rollback-only"));
        assertTrue(e.getCause() instanceof InboxRolledBackException, String.valueOf(e.getCause()));
        assertTrue(e.getCause().getMessage().startsWith("@Inbox " + OrderService.class.getName() + ".place returned "
                + "PROCESSED for " + orderId + " in scope " + SCOPE + ", but its transaction is marked for rollback"),
                e.getCause().getMessage());
        assertEquals(0, invoices(orderId));
        assertEquals(0, markers(INBOX, SCOPE, orderId));
        assertEquals(InboxResult.processed(), service.place(orderId, "process"), "the next attempt is processed");
        assertEquals(1, invoices(orderId));
    }

    @Test
    void aRethrownRetryRollsBackAndLeavesAsInboxRetryException() {
        String orderId = newOrderId();
        EJBException e = assertThrows(EJBException.class, () -> service.retryRethrown(orderId));
        assertTrue(e.getCause() instanceof InboxRetryException, String.valueOf(e.getCause()));
        assertEquals("rethrown for the resource adapter", e.getCause().getMessage());
        assertEquals(0, invoices(orderId));
        assertEquals(0, markers(INBOX, "rethrow", orderId));
        assertEquals(1, handlerCalls(orderId));
    }

    @Test
    void aFailureRollsBackAndRethrowsTheExceptionUnchanged() {
        String orderId = newOrderId();
        EJBException e = assertThrows(EJBException.class, () -> service.place(orderId, "fail"));
        Throwable cause = e.getCause();
        assertSame(IllegalStateException.class, cause.getClass(), String.valueOf(cause));
        assertEquals("failed to place " + orderId, cause.getMessage());
        assertEquals(0, invoices(orderId));
        assertEquals(0, markers(INBOX, SCOPE, orderId));
        assertEquals(1, handlerCalls(orderId));
    }

    @Test
    void aMissingIdIsRefusedBeforeTheMethodRuns() {
        EJBException e = assertThrows(EJBException.class, () -> service.place(" ", "process"));
        assertTrue(e.getCause() instanceof MissingMessageIdException, String.valueOf(e.getCause()));
        assertTrue(e.getCause().getMessage().startsWith("@Inbox " + OrderService.class.getName()
                + ".place cannot process a message without an id: the resolver "), e.getCause().getMessage());
        assertEquals(0, handlerCalls(" "));
    }

    @Test
    void aCdiBeanWithoutATransactionIsRefused() throws Exception {
        String orderId = newOrderId();
        NoActiveTransactionException e = assertThrows(NoActiveTransactionException.class, () -> plain.place(orderId));
        assertEquals("@Inbox " + PlainService.class.getName() + ".place", e.operation());
        assertEquals(Status.STATUS_NO_TRANSACTION, e.status());
        assertEquals(0, handlerCalls(orderId));

        assertEquals(InboxResult.processed(), Transactions.commit(transaction, () -> plain.place(orderId)));
        assertEquals(InboxResult.duplicate(), Transactions.commit(transaction, () -> plain.place(orderId)));
        assertEquals(1, handlerCalls(orderId));
        assertEquals(1, markers(INBOX, "plain", orderId));
    }
}
