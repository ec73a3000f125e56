package io.github.txinbox.it;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.txinbox.InboxSettings;
import io.github.txinbox.it.app.TestDatabase;
import io.github.txinbox.it.harness.Deployments;
import io.github.txinbox.it.harness.PayaraMicroProcess;
import io.github.txinbox.it.messaging.Orders;
import io.github.txinbox.it.misuse.BeanManagedListener;
import io.github.txinbox.it.misuse.NotSupportedService;
import io.github.txinbox.it.tables.MissingTable;
import io.github.txinbox.it.tables.UnfitTable;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.jboss.shrinkwrap.api.ShrinkWrap;
import org.jboss.shrinkwrap.api.asset.StringAsset;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Test;

/**
 * Mistakes that can be seen at deployment fail the deployment, with a message naming the culprit. Runs Payara Micro
 * by hand: Arquillian's adapter does not report failed deployments.
 */
class DeploymentFailureIT {

    private static String deploy(WebArchive war) throws Exception {
        String output = start(war, List.of());
        assertFalse(output.contains(contextRoot(war)), "the WAR was deployed:\n" + output);
        return output;
    }

    private static String contextRoot(WebArchive war) {
        return "\"Context Root\": \"/" + war.getName().replace(".war", "") + "\"";
    }

    private static String start(WebArchive war, List<String> microOptions) throws Exception {
        try (PayaraMicroProcess server = PayaraMicroProcess.deploy(Deployments.export(war), Duration.ofMinutes(3),
                microOptions)) {
            String output = server.output();
            assertTrue(output.contains("\"Name\": \"test-artemis-rar\""), "the server listed no deployments:\n" + output);
            return output;
        }
    }

    /** Starts the server with system properties from a file, as an operator would set them. */
    private static String startWithSystemProperties(WebArchive war, String properties) throws Exception {
        Path file = Files.writeString(Path.of(System.getProperty("txinbox.it.workDir"),
                war.getName().replace(".war", ".properties")), properties);
        return start(war, List.of("--systemProperties", file.toString()));
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

    @Test
    void aMissingTableFailsTheDeploymentWithTheDdlToRun() throws Exception {
        String output = deploy(ShrinkWrap.create(WebArchive.class, "MissingTable.war")
                .merge(Deployments.war(DeploymentFailureIT.class, MissingTable.class)));
        assertTrue(output.contains("The inbox table \"txinbox_it\".\"missing_inbox\" will not do: it does not exist. "
                + "Create it with:"), output);
        assertTrue(output.contains("CREATE TABLE IF NOT EXISTS \"txinbox_it\".\"missing_inbox\" ("), output);
    }

    @Test
    void aTableWithoutThePrimaryKeyFailsTheDeployment() throws Exception {
        TestDatabase.update("DROP TABLE IF EXISTS " + UnfitTable.NAME);
        TestDatabase.update("CREATE TABLE " + UnfitTable.NAME + " (scope text COLLATE \"C\" NOT NULL, "
                + "message_id text COLLATE \"C\" NOT NULL, processed_at timestamptz NOT NULL DEFAULT now())");
        String output = deploy(ShrinkWrap.create(WebArchive.class, "UnfitTable.war")
                .merge(Deployments.war(DeploymentFailureIT.class, UnfitTable.class)));
        assertTrue(output.contains("The inbox table \"txinbox_it\".\"unfit_inbox\" will not do: it has no primary key "
                + "(the inbox needs (scope, message_id))"), output);
    }

    @Test
    void twoProducersOfTheTableFailTheDeploymentNamingBoth() throws Exception {
        String output = deploy(ShrinkWrap.create(WebArchive.class, "TwoTables.war")
                .merge(Deployments.war(DeploymentFailureIT.class, MissingTable.class, UnfitTable.class)));
        assertTrue(output.contains("Several beans produce the InboxTable (" + MissingTable.class.getName() + ", "
                + UnfitTable.class.getName() + "); keep one, or produce none and name the table with "
                + InboxSettings.TABLE), output);
    }

    @Test
    void aKeyColumnUnderTheDatabasesCollationFailsTheDeployment() throws Exception {
        TestDatabase.update("DROP TABLE IF EXISTS " + UnfitTable.NAME);
        TestDatabase.update("CREATE TABLE " + UnfitTable.NAME + " (scope text COLLATE \"C\" NOT NULL, "
                + "message_id text NOT NULL, processed_at timestamptz NOT NULL DEFAULT now(), "
                + "PRIMARY KEY (scope, message_id))");
        String output = deploy(ShrinkWrap.create(WebArchive.class, "UnfitCollation.war")
                .merge(Deployments.war(DeploymentFailureIT.class, UnfitTable.class)));
        assertTrue(output.contains("The inbox table \"txinbox_it\".\"unfit_inbox\" will not do: its column message_id "
                + "is text COLLATE \"default\" NOT NULL, not text COLLATE \"C\" NOT NULL (the key compares bytes"),
                output);
    }

    @Test
    void theCheckCanBeTurnedOff() throws Exception {
        WebArchive war = ShrinkWrap.create(WebArchive.class, "TableCheckOff.war")
                .merge(Deployments.war(DeploymentFailureIT.class, MissingTable.class));
        String output = startWithSystemProperties(war, InboxSettings.TABLE_CHECK + "=false\n");
        assertTrue(output.contains(contextRoot(war)), "the WAR was not deployed:\n" + output);
        assertTrue(output.contains("The inbox table is not checked at start-up: txinbox.table.check=false"), output);
    }

    @Test
    void aTableNamedInTheApplicationsConfigurationIsChecked() throws Exception {
        String output = deploy(ShrinkWrap.create(WebArchive.class, "ConfiguredMissingTable.war")
                .merge(Deployments.war(DeploymentFailureIT.class))
                .addAsResource(new StringAsset(InboxSettings.TABLE + "=TxInbox_IT.Nowhere\n"),
                        "META-INF/microprofile-config.properties"));
        assertTrue(output.contains("The inbox table \"txinbox_it\".\"nowhere\" will not do: it does not exist. "
                + "Create it with:"), output);
    }

    @Test
    void anInvalidSettingFailsTheDeploymentNamingIt() throws Exception {
        WebArchive war = ShrinkWrap.create(WebArchive.class, "InvalidSetting.war")
                .merge(Deployments.war(DeploymentFailureIT.class));
        String output = startWithSystemProperties(war, InboxSettings.MESSAGE_ID_BYTES + "=0\n");
        assertFalse(output.contains(contextRoot(war)), "the WAR was deployed:\n" + output);
        assertTrue(output.contains("txinbox.limits.message-id-bytes=0 is not valid: "
                + "it must lie between 1 and 2048"), output);
    }

    @Test
    void aScopeLongerThanTheConfiguredLimitFailsTheDeployment() throws Exception {
        String output = deploy(ShrinkWrap.create(WebArchive.class, "ScopeOverLimit.war")
                .merge(Deployments.war(DeploymentFailureIT.class))
                .addPackage(Orders.class.getPackage())
                .addAsResource(new StringAsset(InboxSettings.SCOPE_BYTES + "=5\n"),
                        "META-INF/microprofile-config.properties"));
        assertTrue(output.contains("txinbox.limits.scope-bytes=5 is too small for the scope of @Inbox on "
                + Orders.class.getPackageName() + "."), output);
    }
}
