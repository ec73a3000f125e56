package io.github.txinbox.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.txinbox.InboxRepository;
import io.github.txinbox.it.app.Note;
import io.github.txinbox.it.app.TestDatabase;
import io.github.txinbox.it.harness.ArtemisSession;
import io.github.txinbox.it.harness.Await;
import io.github.txinbox.it.harness.Broker;
import io.github.txinbox.it.harness.Deployments;
import jakarta.annotation.Resource;
import jakarta.annotation.sql.DataSourceDefinition;
import jakarta.ejb.ActivationConfigProperty;
import jakarta.ejb.MessageDriven;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.jms.JMSException;
import jakarta.jms.Message;
import jakarta.jms.MessageListener;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;
import jakarta.transaction.Status;
import jakarta.transaction.UserTransaction;
import java.time.Duration;
import java.util.Map;
import java.util.UUID;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.container.test.api.RunAsClient;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Without XA, a transaction has room for one one-phase resource beside the broker's XA branch. An application whose
 * inbox table sits behind a second non-XA datasource (a second persistence unit, named in web.xml) asks for two: Payara
 * refuses to enlist the second with its own error, the transaction rolls back, and a message handled that way is never
 * acknowledged without its effect: it is redelivered, and after its last attempt it ends in the dead-letter queue,
 * with nothing written.
 */
@Tag("nonxa")
@ExtendWith(ArquillianExtension.class)
class NonXaSecondResourceIT {

    /** The queue of the listener below. */
    static final String QUEUE = "two-resources";

    /** The second datasource, non-XA too, whose connections see the schema {@value TestDatabase#SECOND_SCHEMA}. */
    @DataSourceDefinition(
            name = "java:app/jdbc/inbox-it-second",
            className = "org.postgresql.ds.PGSimpleDataSource",
            url = "${MPCONFIG=inbox.db.url}",
            user = "${MPCONFIG=inbox.db.user}",
            password = "${MPCONFIG=inbox.db.password}",
            properties = {"currentSchema=" + TestDatabase.SECOND_SCHEMA})
    @ApplicationScoped
    static class SecondDataSource {
    }

    /** Writes a note through the main unit, then claims the message through the inbox's unit. */
    @MessageDriven(activationConfig = {
            @ActivationConfigProperty(propertyName = "resourceAdapter", propertyValue = "test-artemis-rar"),
            @ActivationConfigProperty(propertyName = "destinationType", propertyValue = "jakarta.jms.Queue"),
            @ActivationConfigProperty(propertyName = "destination", propertyValue = QUEUE),
            @ActivationConfigProperty(propertyName = "useJNDI", propertyValue = "false"),
            @ActivationConfigProperty(propertyName = "maxSession", propertyValue = "1")})
    public static class TwoResourcesListener implements MessageListener {

        @PersistenceContext(unitName = "main")
        EntityManager main;

        @Inject
        InboxRepository inbox;

        @Override
        public void onMessage(Message message) {
            try {
                main.persist(new Note(message.getStringProperty("orderId")));
                main.flush();
                inbox.claim(QUEUE, message.getJMSMessageID());
            } catch (JMSException e) {
                throw new IllegalStateException(e);
            }
        }
    }

    @Deployment
    static WebArchive deployment() {
        return Deployments.withPersistenceXml(Deployments.war(NonXaSecondResourceIT.class),
                "two-units-persistence.xml").addAsWebInfResource("two-units-web.xml", "web.xml");
    }

    @Inject
    InboxRepository inbox;

    @PersistenceContext(unitName = "main")
    EntityManager main;

    @Resource(lookup = "java:comp/UserTransaction")
    UserTransaction transaction;

    private static long notes(String text) {
        return TestDatabase.queryLong("SELECT count(*) FROM " + TestDatabase.SCHEMA + ".note WHERE text = ?", text);
    }

    private static long markers(String scope) {
        return TestDatabase.queryLong("SELECT count(*) FROM " + TestDatabase.SECOND_SCHEMA
                + ".inbox WHERE scope = ?", scope);
    }

    private static String messages(Throwable e) {
        StringBuilder text = new StringBuilder();
        for (Throwable cause = e; cause != null; cause = cause.getCause()) {
            text.append(cause).append('\n');
        }
        return text.toString();
    }

    @Test
    void theServerRefusesTheSecondResourceAndNothingCommits() throws Exception {
        String text = "second-resource-" + UUID.randomUUID();
        String scope = "scope-" + UUID.randomUUID();
        transaction.begin();
        try {
            main.persist(new Note(text));
            main.flush();
            RuntimeException refused = assertThrows(RuntimeException.class,
                    () -> inbox.claim(scope, "ID:" + UUID.randomUUID()));
            assertTrue(messages(refused).contains("non-XA"), messages(refused));
        } finally {
            if (transaction.getStatus() != Status.STATUS_NO_TRANSACTION) {
                transaction.rollback();
            }
        }
        assertEquals(0, notes(text));
        assertEquals(0, markers(scope));
    }

    @Test
    @RunAsClient
    void aMessageHandledThatWayIsNeverAcknowledgedWithoutItsEffect() {
        String orderId = "two-resources-" + UUID.randomUUID();
        Broker.send(QUEUE, Map.of("orderId", orderId));
        Await.until(Duration.ofSeconds(60), "the message to end in the dead-letter queue",
                () -> Broker.count(ArtemisSession.DEAD_LETTER_QUEUE, "orderId = '" + orderId + "'") == 1);
        Broker.awaitDrained(QUEUE, Duration.ofSeconds(30));
        assertEquals(0, notes(orderId), "no attempt committed its note");
        assertEquals(0, markers(QUEUE), "no attempt committed its marker");
    }
}
