package io.github.txinbox.it;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.txinbox.it.harness.Deployments;
import io.github.txinbox.it.harness.Server;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.container.test.api.RunAsClient;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The claims go on the connection that the persistence provider enlisted in the transaction, not as native queries,
 * with every provider these tests run (Hibernate 6.6 and 7, EclipseLink 4 and 5): the start-up check chose the way when
 * this deployment started, and logged it. What the claims do on that way, every other test of a claim shows.
 */
@Tag("portable")
@RunAsClient
@ExtendWith(ArquillianExtension.class)
class ProviderConnectionIT {

    @Deployment
    static WebArchive deployment() {
        return Deployments.war(ProviderConnectionIT.class);
    }

    @Test
    void theClaimsGoOnTheTransactionsOwnConnection() throws IOException {
        Path log = Server.current().log();
        String logged = new String(Files.readAllBytes(log), StandardCharsets.ISO_8859_1);
        String expected = "hibernate".equals(System.getProperty("txinbox.it.jpa"))
                ? "The inbox claims on the transaction's own connection, through Hibernate's Session.doReturningWork"
                : "The inbox claims on the transaction's own connection, ";
        assertTrue(logged.contains(expected), "no line \"" + expected + "\" in " + log);
        assertFalse(logged.contains("The inbox claims as native queries"), "the claims went as native queries: " + log);
    }
}
