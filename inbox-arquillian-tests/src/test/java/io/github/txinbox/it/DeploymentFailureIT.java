package io.github.txinbox.it;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.txinbox.it.harness.Deployments;
import io.github.txinbox.it.harness.PayaraMicroProcess;
import io.github.txinbox.it.misuse.BeanManagedListener;
import io.github.txinbox.it.misuse.NotSupportedService;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.jboss.shrinkwrap.api.ShrinkWrap;
import org.jboss.shrinkwrap.api.exporter.ZipExporter;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Test;

/**
 * Mistakes that can be seen at deployment fail the deployment, with a message naming the culprit. Runs Payara Micro
 * by hand: Arquillian's adapter does not report failed deployments.
 */
class DeploymentFailureIT {

    private static String deploy(WebArchive war) throws Exception {
        Path file = Path.of(System.getProperty("txinbox.it.workDir"), war.getName());
        Files.deleteIfExists(file);
        war.as(ZipExporter.class).exportTo(file.toFile());
        try (PayaraMicroProcess server = PayaraMicroProcess.deploy(file, Duration.ofMinutes(3))) {
            String output = server.output();
            assertTrue(output.contains("\"Name\": \"test-artemis-rar\""), "the server listed no deployments:\n" + output);
            assertFalse(output.contains("\"Context Root\": \"/" + war.getName().replace(".war", "") + "\""),
                    "the WAR was deployed:\n" + output);
            return output;
        }
    }

    @Test
    void misuseOfInboxFailsTheDeploymentNamingBeanAndMethod() throws Exception {
        String output = deploy(ShrinkWrap.create(WebArchive.class, "InboxMisuse.war")
                .merge(Deployments.war(DeploymentFailureIT.class))
                .addPackage(BeanManagedListener.class.getPackage()));
        assertTrue(output.contains("CDI definition failure"), output);
        assertTrue(output.contains("@Inbox on " + BeanManagedListener.class.getName()
                + ".onMessage: the bean uses bean-managed transactions"), output);
        assertTrue(output.contains("@Inbox on " + NotSupportedService.class.getName()
                + ".handle runs with @TransactionAttribute(NOT_SUPPORTED)"), output);
        assertTrue(output.contains("@Inbox on " + NotSupportedService.class.getName()
                + ".describe returns java.lang.String; an @Inbox method must return void or InboxResult"), output);
    }

    @Test
    void severalPersistenceUnitsWithoutTheDescriptorEntryFailTheDeployment() throws Exception {
        WebArchive war = ShrinkWrap.create(WebArchive.class, "AmbiguousUnits.war")
                .merge(Deployments.war(DeploymentFailureIT.class, PersistenceUnitSelectionIT.SecondDataSource.class));
        String output = deploy(Deployments.withPersistenceXml(war, "two-units-persistence.xml"));
        assertTrue(output.contains("Could not resolve a persistence unit corresponding to the "
                + "persistence-context-ref-name [txinbox/persistence-context]"), output);
    }
}
