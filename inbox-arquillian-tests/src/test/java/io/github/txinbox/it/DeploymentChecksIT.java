package io.github.txinbox.it;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.txinbox.InboxSettings;
import io.github.txinbox.it.app.TestDatabase;
import io.github.txinbox.it.harness.Deployments;
import io.github.txinbox.it.harness.Server;
import io.github.txinbox.it.misuse.NotSupportedService;
import io.github.txinbox.it.misuse.UntransactedOrders;
import io.github.txinbox.it.tables.MissingTable;
import io.github.txinbox.it.tables.UnfitTable;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import org.jboss.arquillian.container.test.api.Deployer;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.container.test.api.RunAsClient;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.arquillian.test.api.ArquillianResource;
import org.jboss.shrinkwrap.api.ShrinkWrap;
import org.jboss.shrinkwrap.api.asset.StringAsset;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The deployment-time checks on a server that Arquillian keeps running while it deploys several WARs (WildFly, Open
 * Liberty): misuse of {@code @Inbox}, a missing table, a table without the primary key and a setting the server
 * cannot read each fail the deployment, and the server says why. The cause is looked for in what the adapter reports and in the server's log. On Payara
 * Micro, {@link DeploymentFailureIT} shows the same and more, with servers of its own.
 */
@Tag("deployer")
@RunAsClient
@ExtendWith(ArquillianExtension.class)
class DeploymentChecksIT {

    @ArquillianResource
    Deployer deployer;

    @Deployment(name = "misuse", managed = false)
    static WebArchive misuse() {
        // Not the package's message-driven bean: its activation properties are for Artemis's adapter, which GlassFish's
        // OpenMQ adapter refuses before CDI validates anything.
        return named("Misuse", Deployments.war(DeploymentChecksIT.class, NotSupportedService.class,
                UntransactedOrders.class));
    }

    @Deployment(name = "missing-table", managed = false)
    static WebArchive missingTable() {
        return named("MissingTable", Deployments.war(DeploymentChecksIT.class, MissingTable.class));
    }

    @Deployment(name = "unfit-table", managed = false)
    static WebArchive unfitTable() {
        return named("UnfitTable", Deployments.war(DeploymentChecksIT.class, UnfitTable.class));
    }

    @Deployment(name = "configured-table", managed = false)
    static WebArchive configuredTable() {
        return named("ConfiguredTable", Deployments.war(DeploymentChecksIT.class)
                .addAsResource(new StringAsset(InboxSettings.TABLE + "=TxInbox_IT.Nowhere\n"),
                        "META-INF/microprofile-config.properties"));
    }

    private static WebArchive named(String name, WebArchive war) {
        return ShrinkWrap.create(WebArchive.class, name + ".war").merge(war);
    }

    /** Deploys, expects the deployment to fail, and returns what the adapter and the server's log said. */
    private String failedDeployment(String name) throws IOException {
        Path log = Server.current().log();
        long logged = Files.exists(log) ? Files.size(log) : 0;
        Exception failure = assertThrows(Exception.class, () -> deployer.deploy(name), name + " was deployed");
        try {
            deployer.undeploy(name);
        } catch (RuntimeException e) {
            // Nothing was deployed to take away.
        }
        StringWriter trace = new StringWriter();
        failure.printStackTrace(new PrintWriter(trace));
        byte[] bytes = Files.readAllBytes(log);
        return trace + "\n" + new String(Arrays.copyOfRange(bytes, (int) Math.min(logged, bytes.length),
                bytes.length), StandardCharsets.UTF_8);
    }

    @Test
    void misuseOfInboxFailsTheDeploymentNamingBeanAndMethod() throws IOException {
        String said = failedDeployment("misuse");
        assertTrue(said.contains("@Inbox on " + NotSupportedService.class.getName()
                + ".handle runs with @TransactionAttribute(NOT_SUPPORTED)"), said);
        assertTrue(said.contains("@Inbox on " + NotSupportedService.class.getName()
                + ".describe returns java.lang.String; an @Inbox method must return void or InboxResult"), said);
        assertTrue(said.contains("@Idempotent on " + UntransactedOrders.class.getName() + ".create runs without a "
                + "transaction: a resource method is called with none. Add @Transactional"), said);
    }

    @Test
    void aMissingTableFailsTheDeploymentWithTheDdlToRun() throws IOException {
        String said = failedDeployment("missing-table");
        assertTrue(said.contains("The inbox table \"txinbox_it\".\"missing_inbox\" will not do: it does not exist. "
                + "Create it with:"), said);
    }

    @Test
    void aTableWithoutThePrimaryKeyFailsTheDeployment() throws IOException {
        TestDatabase.update("DROP TABLE IF EXISTS " + UnfitTable.NAME);
        TestDatabase.update("CREATE TABLE " + UnfitTable.NAME + " (scope text COLLATE \"C\" NOT NULL, "
                + "message_id text COLLATE \"C\" NOT NULL, processed_at timestamptz NOT NULL DEFAULT now())");
        String said = failedDeployment("unfit-table");
        assertTrue(said.contains("The inbox table \"txinbox_it\".\"unfit_inbox\" will not do: it has no primary key "
                + "(the inbox needs (scope, message_id))"), said);
    }

    /**
     * A table named in the application's MicroProfile Config file is checked where the server has MicroProfile Config
     * (WildFly), and refused, naming the server's limit, where it has none (the Open Liberty test server, which runs
     * without the mpConfig feature): never ignored.
     */
    @Test
    void aSettingInTheApplicationsConfigFileIsAppliedOrRefusedButNeverIgnored() throws IOException {
        String said = failedDeployment("configured-table");
        String expected = !Server.current().hasMicroProfileConfig()
                ? "META-INF/microprofile-config.properties sets txinbox.table, but this server gives the application "
                        + "no MicroProfile Config"
                : "The inbox table \"txinbox_it\".\"nowhere\" will not do: it does not exist.";
        assertTrue(said.contains(expected), said);
    }
}
