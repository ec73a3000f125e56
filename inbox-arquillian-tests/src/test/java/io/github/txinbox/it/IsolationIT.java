package io.github.txinbox.it;

import static io.github.txinbox.it.app.TestDatabase.INBOX;
import static io.github.txinbox.it.app.TestDatabase.markers;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.txinbox.InboxConflictException;
import io.github.txinbox.InboxOutcome;
import io.github.txinbox.InboxRepository;
import io.github.txinbox.InboxResult;
import io.github.txinbox.it.app.SqlErrors;
import io.github.txinbox.it.app.TestDatabase;
import io.github.txinbox.it.app.Transactions;
import io.github.txinbox.it.harness.Deployments;
import io.github.txinbox.it.messaging.Orders;
import io.github.txinbox.it.messaging.PlainService;
import jakarta.annotation.Resource;
import jakarta.annotation.sql.DataSourceDefinition;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;
import jakarta.transaction.Status;
import jakarta.transaction.UserTransaction;
import java.sql.Connection;
import java.util.UUID;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Under REPEATABLE READ, a claim that meets a marker committed after the transaction's snapshot is a serialization
 * failure (SQLSTATE 40001), which aborts the transaction. The repository throws it as an
 * {@link InboxConflictException}; {@code @Inbox} turns that into a retry, and the next attempt finds the committed
 * marker: a duplicate.
 */
@ExtendWith(ArquillianExtension.class)
class IsolationIT {

    /** The deployment's datasource, at REPEATABLE READ. */
    @DataSourceDefinition(
            name = "java:app/jdbc/inbox-it-rr",
            className = "org.postgresql.xa.PGXADataSource",
            url = "${MPCONFIG=inbox.db.url}",
            user = "${MPCONFIG=inbox.db.user}",
            password = "${MPCONFIG=inbox.db.password}",
            isolationLevel = Connection.TRANSACTION_REPEATABLE_READ,
            properties = {"currentSchema=" + TestDatabase.SCHEMA})
    @ApplicationScoped
    static class RepeatableReadDataSource {
    }

    @Deployment
    static WebArchive deployment() {
        return Deployments.withPersistenceXml(
                Deployments.war(IsolationIT.class).addPackage(Orders.class.getPackage()), "rr-persistence.xml");
    }

    @Inject
    InboxRepository inbox;

    @Inject
    PlainService plain;

    @PersistenceContext
    EntityManager entityManager;

    @Resource(lookup = "java:comp/UserTransaction")
    UserTransaction transaction;

    /** Starts a transaction and takes its snapshot, then commits the marker from another connection. */
    private void beginThenCommitMarkerElsewhere(String scope, String id) throws Exception {
        transaction.begin();
        // A SELECT (not SHOW, a utility command) takes the transaction's snapshot.
        assertEquals("repeatable read", entityManager
                .createNativeQuery("SELECT current_setting('transaction_isolation')").getSingleResult());
        TestDatabase.update("INSERT INTO " + INBOX + " (scope, message_id) VALUES (?, ?)", scope, id);
    }

    @Test
    void theRepositoryThrowsTheSerializationFailureAsAConflict() throws Exception {
        String id = "ID:" + UUID.randomUUID();
        beginThenCommitMarkerElsewhere("rr", id);
        try {
            InboxConflictException e = assertThrows(InboxConflictException.class, () -> inbox.claim("rr", id));
            assertEquals(SqlErrors.SERIALIZATION_FAILURE, e.sqlState(), String.valueOf(e));
            assertEquals(SqlErrors.SERIALIZATION_FAILURE, SqlErrors.sqlState(e.getCause()), "the cause is kept");
            assertEquals(Status.STATUS_MARKED_ROLLBACK, transaction.getStatus());
        } finally {
            transaction.rollback();
        }
        assertEquals(1, markers(INBOX, "rr", id), "only the concurrent transaction's marker");
    }

    @Test
    void inboxTurnsItIntoARetryAndTheNextAttemptIsADuplicate() throws Exception {
        String id = "order-" + UUID.randomUUID();
        beginThenCommitMarkerElsewhere("plain", id);
        InboxResult result;
        try {
            result = plain.place(id);
            assertEquals(Status.STATUS_MARKED_ROLLBACK, transaction.getStatus());
        } finally {
            transaction.rollback();
        }
        assertEquals(InboxOutcome.RETRY, result.outcome());
        assertTrue(result.reason().contains("SQLSTATE 40001"), result.reason());
        assertEquals(0, TestDatabase.queryLong("SELECT count(*) FROM " + TestDatabase.SCHEMA
                + ".handler_call WHERE order_id = ?", id), "the method was not invoked");

        assertEquals(InboxResult.duplicate(), Transactions.commit(transaction, () -> plain.place(id)),
                "the redelivery is a duplicate");
    }
}
