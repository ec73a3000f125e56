package io.github.txinbox.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.github.txinbox.InboxRepository;
import io.github.txinbox.NoActiveTransactionException;
import io.github.txinbox.it.app.NotSupportedBean;
import io.github.txinbox.it.app.NotSupportedEjb;
import io.github.txinbox.it.app.TestDatabase;
import io.github.txinbox.it.harness.Deployments;
import jakarta.annotation.Resource;
import jakarta.ejb.EJBException;
import jakarta.inject.Inject;
import jakarta.transaction.Status;
import jakarta.transaction.UserTransaction;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.function.Executable;

/** Every repository method refuses to run outside an active JTA transaction, and writes nothing. */
@Tag("portable")
@ExtendWith(ArquillianExtension.class)
class TransactionRequiredIT {

    @Deployment
    static WebArchive deployment() {
        return Deployments.war(TransactionRequiredIT.class);
    }

    @Inject
    InboxRepository inbox;

    @Inject
    NotSupportedBean notSupported;

    @Inject
    NotSupportedEjb notSupportedEjb;

    @Resource(lookup = "java:comp/UserTransaction")
    UserTransaction transaction;

    private static void assertRefused(String operation, int status, Executable call) {
        NoActiveTransactionException e = assertThrows(NoActiveTransactionException.class, call);
        assertEquals(operation, e.operation());
        assertEquals(status, e.status());
        assertTrue(e.getMessage().startsWith(operation + " requires an active JTA transaction"), e.getMessage());
    }

    @Test
    void claimWithoutATransaction() {
        String id = "ID:" + UUID.randomUUID();
        assertRefused("InboxRepository.claim", Status.STATUS_NO_TRANSACTION, () -> inbox.claim("orders", id));
        assertEquals(0, TestDatabase.markers(TestDatabase.INBOX, "orders", id));
    }

    @Test
    void claimAllWithoutATransaction() {
        String id = "ID:" + UUID.randomUUID();
        assertRefused("InboxRepository.claimAll", Status.STATUS_NO_TRANSACTION,
                () -> inbox.claimAll("orders", List.of(id)));
        assertRefused("InboxRepository.claimAll", Status.STATUS_NO_TRANSACTION,
                () -> inbox.claimAll("orders", List.of()));
        assertEquals(0, TestDatabase.markers(TestDatabase.INBOX, "orders", id));
    }

    @Test
    void cleanupCutoffWithoutATransaction() {
        assertRefused("InboxRepository.cleanupCutoff", Status.STATUS_NO_TRANSACTION,
                () -> inbox.cleanupCutoff(Duration.ofDays(7)));
    }

    @Test
    void deleteExpiredBatchWithoutATransaction() {
        assertRefused("InboxRepository.deleteExpiredBatch", Status.STATUS_NO_TRANSACTION,
                () -> inbox.deleteExpiredBatch(Instant.now(), 100));
    }

    @Test
    void everyMethodUnderNotSupportedWhileTheCallerHasATransaction() throws Exception {
        String id = "ID:" + UUID.randomUUID();
        transaction.begin();
        try {
            assertRefused("InboxRepository.claim", Status.STATUS_NO_TRANSACTION,
                    () -> notSupported.claim("orders", id));
            assertRefused("InboxRepository.cleanupCutoff", Status.STATUS_NO_TRANSACTION,
                    () -> notSupported.cleanupCutoff(Duration.ofDays(7)));
            assertRefused("InboxRepository.deleteExpiredBatch", Status.STATUS_NO_TRANSACTION,
                    () -> notSupported.deleteExpiredBatch(Instant.now(), 100));
            // The caller's suspended transaction is untouched.
            assertEquals(Status.STATUS_ACTIVE, transaction.getStatus());
        } finally {
            transaction.rollback();
        }
        assertEquals(0, TestDatabase.markers(TestDatabase.INBOX, "orders", id));
    }

    @Test
    void claimFromAnEjbMethodWithNotSupported() {
        String id = "ID:" + UUID.randomUUID();
        EJBException e = assertThrows(EJBException.class, () -> notSupportedEjb.claim("orders", id));
        NoActiveTransactionException cause = causeOfType(e, NoActiveTransactionException.class);
        assertEquals("InboxRepository.claim", cause.operation());
        assertEquals(Status.STATUS_NO_TRANSACTION, cause.status());
        assertEquals(0, TestDatabase.markers(TestDatabase.INBOX, "orders", id));
    }

    @Test
    void claimInATransactionMarkedForRollback() throws Exception {
        String id = "ID:" + UUID.randomUUID();
        transaction.begin();
        try {
            transaction.setRollbackOnly();
            assertRefused("InboxRepository.claim", Status.STATUS_MARKED_ROLLBACK, () -> inbox.claim("orders", id));
        } finally {
            transaction.rollback();
        }
        assertEquals(0, TestDatabase.markers(TestDatabase.INBOX, "orders", id));
    }

    private static <T extends Throwable> T causeOfType(Throwable thrown, Class<T> type) {
        for (Throwable t = thrown; t != null; t = t.getCause()) {
            if (type.isInstance(t)) {
                return type.cast(t);
            }
        }
        return fail("No " + type.getSimpleName() + " in the cause chain of " + thrown);
    }
}
