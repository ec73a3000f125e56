package io.github.txinbox.it;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.txinbox.InboxSettings;
import io.github.txinbox.http.IdempotentSettings;
import io.github.txinbox.it.app.TestDatabase;
import io.github.txinbox.it.crash.CrashPoint;
import io.github.txinbox.it.harness.Deployments;
import io.github.txinbox.it.harness.PayaraMicro;
import io.github.txinbox.it.harness.StandaloneServer;
import io.github.txinbox.it.http.HttpOrders;
import io.github.txinbox.it.messaging.Orders;
import io.github.txinbox.it.misuse.BeanManagedListener;
import io.github.txinbox.it.misuse.NotSupportedService;
import io.github.txinbox.it.misuse.SharedScope;
import io.github.txinbox.it.misuse.UntransactedOrders;
import io.github.txinbox.it.tables.MissingTable;
import io.github.txinbox.it.tables.UnfitTable;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.jboss.shrinkwrap.api.ShrinkWrap;
import org.jboss.shrinkwrap.api.asset.StringAsset;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Mistakes that can be seen at deployment fail the deployment, with a message naming the culprit. Runs Payara Micro
 * by hand: Arquillian's adapter does not report failed deployments. One server boots with every failing WAR below
 * (Payara Micro deploys each in turn, whether the one before failed or not), and each test reads what that server
 * printed for its own WAR: every message it looks for names its WAR's bean, table or setting. A second server starts
 * with a setting in a system properties file, as an operator would set it.
 */
class DeploymentFailureIT {

    private static final Duration BOOT = Duration.ofMinutes(3);

    /** The key column of this table is under the database's collation (the test creates it). */
    private static final String UNFIT_COLLATION = TestDatabase.SCHEMA + ".unfit_collation_inbox";

    private static final WebArchive MISUSE = named("InboxMisuse", Deployments.war(DeploymentFailureIT.class)
            .addPackage(BeanManagedListener.class.getPackage()));

    /** Valid bindings alone, which fail together once every extension has bound its methods. */
    private static final WebArchive SHARED_SCOPE = named("SharedScope", Deployments.war(DeploymentFailureIT.class,
            SharedScope.class));

    private static final WebArchive AMBIGUOUS_UNITS = Deployments.withPersistenceXml(named("AmbiguousUnits",
            Deployments.war(DeploymentFailureIT.class, PersistenceUnitSelectionIT.SecondDataSource.class)),
            "two-units-persistence.xml");

    private static final WebArchive MISSING_TABLE = named("MissingTable",
            Deployments.war(DeploymentFailureIT.class, MissingTable.class));

    private static final WebArchive UNFIT_TABLE = named("UnfitTable",
            Deployments.war(DeploymentFailureIT.class, UnfitTable.class));

    private static final WebArchive TWO_TABLES = named("TwoTables",
            Deployments.war(DeploymentFailureIT.class, MissingTable.class, UnfitTable.class));

    private static final WebArchive UNFIT_COLLATION_TABLE = configured("UnfitCollation",
            Deployments.war(DeploymentFailureIT.class), InboxSettings.TABLE + "=" + UNFIT_COLLATION);

    private static final WebArchive CONFIGURED_MISSING_TABLE = configured("ConfiguredMissingTable",
            Deployments.war(DeploymentFailureIT.class), InboxSettings.TABLE + "=TxInbox_IT.Nowhere");

    private static final WebArchive INVALID_SETTING = configured("InvalidSetting",
            Deployments.war(DeploymentFailureIT.class), InboxSettings.MESSAGE_ID_BYTES + "=0");

    /** inbox-http reads its own setting, and a bad one fails the start as the core's do. */
    private static final WebArchive INVALID_HTTP_SETTING = configured("InvalidHttpSetting",
            Deployments.war(DeploymentFailureIT.class, CrashPoint.class, CrashPoint.Phase.class)
                    .addPackage(HttpOrders.class.getPackage()),
            IdempotentSettings.MAX_RESPONSE_BYTES + "=64k");

    private static final WebArchive SCOPE_OVER_LIMIT = configured("ScopeOverLimit",
            Deployments.war(DeploymentFailureIT.class).addPackage(Orders.class.getPackage()),
            InboxSettings.SCOPE_BYTES + "=5");

    /** An {@code @Idempotent} application on a table without the response columns (CustomTableIT's). */
    private static final WebArchive NO_RESPONSE_COLUMNS = configured("NoResponseColumns",
            Deployments.war(DeploymentFailureIT.class, CrashPoint.class, CrashPoint.Phase.class)
                    .addPackage(HttpOrders.class.getPackage()),
            InboxSettings.TABLE + "=" + TestDatabase.CUSTOM_SCHEMA + ".markers");

    private static final WebArchive TABLE_CHECK_OFF = named("TableCheckOff",
            Deployments.war(DeploymentFailureIT.class, MissingTable.class));

    /** What the server with every failing WAR printed. */
    private static String failures;

    /** What the server started with txinbox.table.check=false in its system properties printed. */
    private static String checkOff;

    private static WebArchive named(String name, WebArchive war) {
        return ShrinkWrap.create(WebArchive.class, name + ".war").merge(war);
    }

    /** A deployment whose META-INF/microprofile-config.properties holds the given setting. */
    private static WebArchive configured(String name, WebArchive war, String setting) {
        return named(name, war).addAsResource(new StringAsset(setting + "\n"),
                "META-INF/microprofile-config.properties");
    }

    @BeforeAll
    static void startTheServers() throws Exception {
        TestDatabase.update("DROP TABLE IF EXISTS " + UnfitTable.NAME);
        TestDatabase.update("CREATE TABLE " + UnfitTable.NAME + " (scope text COLLATE \"C\" NOT NULL, "
                + "message_id text COLLATE \"C\" NOT NULL, processed_at timestamptz NOT NULL DEFAULT now())");
        TestDatabase.update("DROP TABLE IF EXISTS " + UNFIT_COLLATION);
        TestDatabase.update("CREATE TABLE " + UNFIT_COLLATION + " (scope text COLLATE \"C\" NOT NULL, "
                + "message_id text NOT NULL, processed_at timestamptz NOT NULL DEFAULT now(), "
                + "PRIMARY KEY (scope, message_id))");
        failures = start(List.of(MISUSE, AMBIGUOUS_UNITS, MISSING_TABLE, UNFIT_TABLE, TWO_TABLES,
                UNFIT_COLLATION_TABLE, CONFIGURED_MISSING_TABLE, INVALID_SETTING, INVALID_HTTP_SETTING,
                SCOPE_OVER_LIMIT, NO_RESPONSE_COLUMNS, SHARED_SCOPE), List.of());
        Path properties = Files.writeString(Path.of(System.getProperty("txinbox.it.workDir"),
                "table-check-off.properties"), InboxSettings.TABLE_CHECK + "=false\n");
        checkOff = start(List.of(TABLE_CHECK_OFF), List.of("--systemProperties", properties.toString()));
    }

    /** Boots one Payara Micro with the WARs, stops it, and returns what it printed. */
    private static String start(List<WebArchive> wars, List<String> microOptions) throws Exception {
        List<Path> exported = new ArrayList<>();
        for (WebArchive war : wars) {
            exported.add(Deployments.export(war));
        }
        try (StandaloneServer server = PayaraMicro.start(exported, BOOT, microOptions,
                System.getProperty("txinbox.it.artemis.port"), System.getProperty("inbox.db.url"))) {
            String output = server.output();
            assertTrue(output.contains("\"Name\": \"test-artemis-rar\""),
                    "the server listed no deployments:\n" + output);
            return output;
        }
    }

    private static boolean deployed(WebArchive war, String output) {
        return output.contains("\"Context Root\": \"/" + war.getName().replace(".war", "") + "\"");
    }

    /** Asserts that the WAR was not deployed and that the server printed each of the messages. */
    private static void failedSaying(WebArchive war, String... messages) {
        assertFalse(deployed(war, failures), war.getName() + " was deployed:\n" + failures);
        for (String message : messages) {
            assertTrue(failures.contains(message), "no \"" + message + "\" for " + war.getName() + ":\n" + failures);
        }
    }

    @Test
    void misuseOfInboxFailsTheDeploymentNamingBeanAndMethod() {
        failedSaying(MISUSE,
                "@Inbox on " + BeanManagedListener.class.getName()
                        + ".onMessage: the bean uses bean-managed transactions",
                "@Inbox on " + NotSupportedService.class.getName()
                        + ".handle runs with @TransactionAttribute(NOT_SUPPORTED)",
                "@Inbox on " + NotSupportedService.class.getName()
                        + ".describe returns java.lang.String; an @Inbox method must return void or InboxResult");
    }

    @Test
    void misuseOfIdempotentFailsTheDeploymentNamingBeanAndMethod() {
        failedSaying(MISUSE,
                "@Idempotent on " + UntransactedOrders.class.getName() + ".create runs without a transaction: a "
                        + "resource method is called with none. Add @Transactional",
                "@Idempotent on " + UntransactedOrders.class.getName() + ".read: the method handles GET, which "
                        + "changes nothing and needs no key");
    }

    @Test
    void anInboxAndAnIdempotentMethodSharingAScopeFailTheDeployment() {
        failedSaying(SHARED_SCOPE, "@Inbox on " + SharedScope.class.getName() + ".handle and @Idempotent on "
                + SharedScope.class.getName() + ".create share the scope 'shared': a message id and an idempotency "
                + "key would be taken for each other");
    }

    @Test
    void anIdempotentApplicationOnATableWithoutTheResponseColumnsFailsToStart() {
        failedSaying(NO_RESPONSE_COLUMNS, "The inbox table \"txinbox_it_custom\".\"markers\" will not do for "
                        + "@Idempotent: it has no column request_fingerprint (bytea), where @Idempotent stores responses",
                "ALTER TABLE \"txinbox_it_custom\".\"markers\"");
    }

    @Test
    void severalPersistenceUnitsWithoutTheDescriptorEntryFailTheDeployment() {
        failedSaying(AMBIGUOUS_UNITS, "Could not resolve a persistence unit corresponding to the "
                + "persistence-context-ref-name [txinbox/persistence-context]");
    }

    @Test
    void aMissingTableFailsTheDeploymentWithTheDdlToRun() {
        failedSaying(MISSING_TABLE,
                "The inbox table \"txinbox_it\".\"missing_inbox\" will not do: it does not exist. Create it with:",
                "CREATE TABLE IF NOT EXISTS \"txinbox_it\".\"missing_inbox\" (");
    }

    @Test
    void aTableWithoutThePrimaryKeyFailsTheDeployment() {
        failedSaying(UNFIT_TABLE, "The inbox table \"txinbox_it\".\"unfit_inbox\" will not do: it has no primary key "
                + "(the inbox needs (scope, message_id))");
    }

    @Test
    void twoProducersOfTheTableFailTheDeploymentNamingBoth() {
        failedSaying(TWO_TABLES, "Several beans produce the InboxTable (" + MissingTable.class.getName() + ", "
                + UnfitTable.class.getName() + "); keep one, or produce none and name the table with "
                + InboxSettings.TABLE);
    }

    @Test
    void aKeyColumnUnderTheDatabasesCollationFailsTheDeployment() {
        failedSaying(UNFIT_COLLATION_TABLE, "The inbox table \"txinbox_it\".\"unfit_collation_inbox\" will not do: "
                + "its column message_id is text COLLATE \"default\" NOT NULL, not text COLLATE \"C\" NOT NULL "
                + "(the key compares bytes");
    }

    @Test
    void aTableNamedInTheApplicationsConfigurationIsChecked() {
        failedSaying(CONFIGURED_MISSING_TABLE,
                "The inbox table \"txinbox_it\".\"nowhere\" will not do: it does not exist. Create it with:");
    }

    @Test
    void anInvalidSettingFailsTheDeploymentNamingIt() {
        failedSaying(INVALID_SETTING,
                "txinbox.limits.message-id-bytes=0 is not valid: it must lie between 1 and 2048");
    }

    @Test
    void anInvalidSettingOfInboxHttpFailsTheDeploymentNamingIt() {
        failedSaying(INVALID_HTTP_SETTING, "txinbox.http.max-response-bytes=64k is not valid: expected a whole number");
    }

    @Test
    void aScopeLongerThanTheConfiguredLimitFailsTheDeployment() {
        failedSaying(SCOPE_OVER_LIMIT, "txinbox.limits.scope-bytes=5 is too small for the scope of @Inbox on "
                + Orders.class.getPackageName() + ".");
    }

    @Test
    void theCheckCanBeTurnedOffInTheSystemProperties() {
        assertTrue(deployed(TABLE_CHECK_OFF, checkOff), "the WAR was not deployed:\n" + checkOff);
        assertTrue(checkOff.contains("The inbox table is not checked at start-up: txinbox.table.check=false"),
                checkOff);
    }
}
