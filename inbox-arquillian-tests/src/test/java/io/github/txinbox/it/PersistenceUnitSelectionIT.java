package io.github.txinbox.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.txinbox.InboxRepository;
import io.github.txinbox.it.app.Note;
import io.github.txinbox.it.app.TestDatabase;
import io.github.txinbox.it.app.Transactions;
import io.github.txinbox.it.harness.Deployments;
import jakarta.annotation.Resource;
import jakarta.annotation.sql.DataSourceDefinition;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;
import jakarta.transaction.UserTransaction;
import java.util.UUID;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * An application with two persistence units names the inbox's unit in web.xml (a persistence-context-ref for
 * {@value InboxRepository#PERSISTENCE_CONTEXT_NAME}); the markers then go through that unit's datasource, while the
 * application's own writes go through the other, in one JTA transaction.
 */
@Tag("xa") // two datasources in one transaction: both take part in two-phase commit
@ExtendWith(ArquillianExtension.class)
class PersistenceUnitSelectionIT {

    /** The second datasource, whose connections see the schema {@value TestDatabase#SECOND_SCHEMA}. */
    @DataSourceDefinition(
            name = "java:app/jdbc/inbox-it-second",
            className = "org.postgresql.xa.PGXADataSource",
            url = "${MPCONFIG=inbox.db.url}",
            user = "${MPCONFIG=inbox.db.user}",
            password = "${MPCONFIG=inbox.db.password}",
            properties = {"currentSchema=" + TestDatabase.SECOND_SCHEMA})
    @ApplicationScoped
    static class SecondDataSource {
    }

    @Deployment
    static WebArchive deployment() {
        return Deployments.withPersistenceXml(Deployments.war(PersistenceUnitSelectionIT.class),
                "two-units-persistence.xml").addAsWebInfResource("two-units-web.xml", "web.xml");
    }

    @Inject
    InboxRepository inbox;

    @PersistenceContext(unitName = "main")
    EntityManager main;

    @Resource(lookup = "java:comp/UserTransaction")
    UserTransaction transaction;

    @Test
    void markersGoThroughTheUnitNamedInTheDescriptor() throws Exception {
        String id = "ID:" + UUID.randomUUID();
        Note note = new Note("written through the main unit");
        assertTrue(Transactions.commit(transaction, () -> {
            main.persist(note);
            return inbox.claim("orders", id);
        }));
        assertEquals(1, TestDatabase.markers(TestDatabase.SECOND_SCHEMA + ".inbox", "orders", id));
        assertEquals(0, TestDatabase.markers(TestDatabase.INBOX, "orders", id));
        assertEquals(1, TestDatabase.queryLong("SELECT count(*) FROM txinbox_it.note WHERE id = ?", note.getId()));
    }

    @Test
    void aRollbackUndoesBothUnitsWrites() throws Exception {
        String id = "ID:" + UUID.randomUUID();
        Note note = new Note("rolled back");
        Transactions.rollback(transaction, () -> {
            main.persist(note);
            main.flush();
            return inbox.claim("orders", id);
        });
        assertEquals(0, TestDatabase.markers(TestDatabase.SECOND_SCHEMA + ".inbox", "orders", id));
        assertEquals(0, TestDatabase.queryLong("SELECT count(*) FROM txinbox_it.note WHERE id = ?", note.getId()));
    }
}
