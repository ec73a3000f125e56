package io.github.txinbox.it.harness;

import io.github.txinbox.dev.ChildProcess;
import io.github.txinbox.it.app.TestDatabase;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.logging.Logger;
import org.jboss.shrinkwrap.api.exporter.ZipExporter;
import org.jboss.shrinkwrap.api.spec.WebArchive;

/**
 * WildFly (standalone-full): a server-level datasource and queues, its own Artemis broker and Hibernate. Its set-up is
 * what an application using txinbox must configure on WildFly, done with WildFly's own CLI on an embedded (offline)
 * server, in a copy of {@code standalone-full.xml} named {@value #CONFIG}.
 *
 * <ul>
 *   <li>the PostgreSQL driver as a module, and the datasource {@code java:jboss/datasources/InboxIT}: an XA one
 *       ({@code PGXADataSource}) or, with {@code txinbox.it.datasource=local}, a non-XA one;</li>
 *   <li>the queues of the portable suite, and the broker's redelivery: at most
 *       {@value ArtemisSession#MAX_DELIVERY_ATTEMPTS} deliveries, {@value ArtemisSession#REDELIVERY_DELAY_MS} ms
 *       apart, then the queue {@code DLQ};</li>
 *   <li>MicroProfile Reactive Messaging (its subsystem and that of Reactive Streams Operators), whose Kafka connector
 *       the Kafka tests use with the run's {@link KafkaBroker}.</li>
 * </ul>
 *
 * <p>The configuration also holds, as system properties, the test database's connection and the JNDI names the
 * deployments look up. It also clears what the last run left in the server's data directory (the broker's journal, the transaction
 * log) and its deployments.
 */
public final class WildFly extends Server {

    /** The server's name in {@code -Dit.server}. */
    static final String NAME = "wildfly";

    private static final String DATA_SOURCE = "java:jboss/datasources/InboxIT";

    /** The server configuration the tests run, in {@code standalone/configuration}. */
    static final String CONFIG = "standalone-txinbox.xml";

    private static final Logger LOG = Logger.getLogger(WildFly.class.getName());

    WildFly() {
        super(NAME, DATA_SOURCE);
    }

    private static Path home() {
        return Path.of(Server.required("txinbox.it.wildfly.home"));
    }

    @Override
    public boolean exposesTransactionManager() {
        return true;
    }

    @Override
    public boolean hasKafkaConnector() {
        return true;
    }

    @Override
    public Path log() {
        return home().resolve("standalone/log/server.log");
    }

    @Override
    public void setUp() throws IOException {
        Path home = home();
        Path work = Server.workDirectory();
        Directories.delete(home.resolve("standalone/data"));
        Directories.delete(home.resolve("standalone/tmp"));
        Directories.delete(home.resolve("standalone/deployments"));
        Files.createDirectories(home.resolve("standalone/deployments"));
        installDriver(home);
        Path configuration = home.resolve("standalone/configuration");
        Files.copy(configuration.resolve("standalone-full.xml"), configuration.resolve(CONFIG),
                StandardCopyOption.REPLACE_EXISTING);
        Path script = work.resolve("wildfly-setup.cli");
        Files.writeString(script, script());
        Path log = work.resolve("wildfly-setup.log");
        Files.deleteIfExists(log);
        ChildProcess.run("WildFly's CLI", List.of(home.resolve("bin/jboss-cli.sh").toString(), "--file=" + script),
                home, Map.of(), log, Duration.ofMinutes(3));
        LOG.info(() -> "WildFly set up in " + home + " (" + CONFIG + ", datasource " + Server.dataSourceKind() + ")");
    }

    /**
     * Starts WildFly in {@code target/killed/NAME/wildfly}, a copy of the set-up's configuration made on the first
     * start with the datasource on the database given, the WAR in its {@code deployments}; ready once the WAR's
     * {@code .deployed} marker appears.
     */
    @Override
    public StandaloneServer startStandalone(String name, WebArchive war, Duration timeout, String databaseUrl,
            List<String> properties) throws IOException {
        Path home = home();
        Path directory = StandaloneServer.directory(name);
        Path base = directory.resolve("wildfly");
        if (!Files.exists(directory)) {
            Directories.copy(home.resolve("standalone/configuration"), base.resolve("configuration"));
            Path configuration = base.resolve("configuration/" + CONFIG);
            String sessionUrl = System.getProperty("inbox.db.url");
            String content = Files.readString(configuration);
            if (!content.contains(sessionUrl)) {
                throw new IllegalStateException("No " + sessionUrl + " in " + configuration);
            }
            Files.writeString(configuration, content.replace(sessionUrl, databaseUrl));
            Files.createDirectories(base.resolve("deployments"));
            war.as(ZipExporter.class).exportTo(base.resolve("deployments/" + war.getName()).toFile());
        }
        Path deployed = base.resolve("deployments/" + war.getName() + ".deployed");
        Path failed = base.resolve("deployments/" + war.getName() + ".failed");
        Files.deleteIfExists(deployed);
        Files.deleteIfExists(failed);
        List<String> command = new ArrayList<>(List.of(home.resolve("bin/standalone.sh").toString(),
                "-c", CONFIG,
                "-Djboss.server.base.dir=" + base,
                "-Djboss.bind.address=127.0.0.1", "-Djboss.bind.address.management=127.0.0.1",
                "-Djboss.bind.address.private=127.0.0.1", "-Djboss.bind.address.unsecure=127.0.0.1",
                "-Djboss.socket.binding.port-offset=" + (StandaloneServer.HTTP_PORT - 8080)));
        command.addAll(properties);
        ChildProcess process = ChildProcess.start("WildFly " + name, command, directory,
                Map.of("JBOSS_HOME", home.toString()),
                directory.resolve("console-" + System.currentTimeMillis() + ".log"));
        process.awaitReady(output -> Files.exists(deployed), output -> Files.exists(failed), timeout);
        return new StandaloneServer(process, war.getName().replace(".war", ""));
    }

    /** WildFly's own datasource is XA on this leg; Narayana's periodic recovery runs every {@code recoverySeconds}. */
    @Override
    public StandaloneServer startRecovering(String name, WebArchive war, Duration timeout, String databaseUrl,
            int recoverySeconds) throws IOException {
        Directories.delete(StandaloneServer.directory(name));
        return startStandalone(name, war, timeout, databaseUrl, List.of(
                "-DRecoveryEnvironmentBean.periodicRecoveryPeriod=" + recoverySeconds,
                "-DRecoveryEnvironmentBean.recoveryBackoffPeriod=1"));
    }

    /** Installs the driver from the deployment's libraries as the module {@code org.postgresql}. */
    private static void installDriver(Path home) throws IOException {
        Path module = home.resolve("modules/org/postgresql/main");
        Files.createDirectories(module);
        Files.copy(Server.postgresqlDriver(), module.resolve("postgresql.jar"),
                StandardCopyOption.REPLACE_EXISTING);
        Files.writeString(module.resolve("module.xml"), """
                <?xml version="1.0" encoding="UTF-8"?>
                <module xmlns="urn:jboss:module:1.9" name="org.postgresql">
                    <resources>
                        <resource-root path="postgresql.jar"/>
                    </resources>
                    <dependencies>
                        <module name="java.se"/>
                        <module name="jakarta.transaction.api"/>
                    </dependencies>
                </module>
                """);
    }

    private String script() {
        String url = System.getProperty("inbox.db.url");
        String user = System.getProperty("inbox.db.user");
        String password = System.getProperty("inbox.db.password");
        String datasources = "/subsystem=datasources";
        StringBuilder cli = new StringBuilder()
                .append("embed-server --server-config=").append(CONFIG).append(" --std-out=echo\n");
        // MicroProfile Reactive Messaging and its Kafka connector, which the distribution has as modules but no
        // configuration of it enables.
        for (String subsystem : List.of("reactive-streams-operators-smallrye", "reactive-messaging-smallrye")) {
            cli.append("/extension=org.wildfly.extension.microprofile.").append(subsystem).append(":add\n")
                    .append("/subsystem=microprofile-").append(subsystem).append(":add\n");
        }
        cli.append("batch\n")
                .append(datasources).append("/jdbc-driver=postgresql:add(driver-name=postgresql, ")
                .append("driver-module-name=org.postgresql, ")
                .append("driver-xa-datasource-class-name=org.postgresql.xa.PGXADataSource)\n");
        String pool = "jndi-name=" + dataSource() + ", driver-name=postgresql, user-name=" + quote(user)
                + ", password=" + quote(password) + ", min-pool-size=1, max-pool-size=16";
        if (Server.nonXa()) {
            String dataSource = datasources + "/data-source=InboxIT";
            cli.append(dataSource).append(":add(").append(pool).append(", connection-url=").append(quote(url))
                    .append(")\n");
            property(cli, dataSource + "/connection-properties=currentSchema", TestDatabase.SCHEMA);
            property(cli, dataSource + "/connection-properties=ApplicationName", "txinbox-it-container");
        } else {
            String dataSource = datasources + "/xa-data-source=InboxIT";
            cli.append(dataSource).append(":add(").append(pool).append(")\n");
            property(cli, dataSource + "/xa-datasource-properties=URL", url);
            property(cli, dataSource + "/xa-datasource-properties=CurrentSchema", TestDatabase.SCHEMA);
            property(cli, dataSource + "/xa-datasource-properties=ApplicationName", "txinbox-it-container");
        }
        String messaging = "/subsystem=messaging-activemq/server=default";
        cli.append(messaging).append("/address-setting=#:write-attribute(name=max-delivery-attempts, value=")
                .append(ArtemisSession.MAX_DELIVERY_ATTEMPTS).append(")\n")
                .append(messaging).append("/address-setting=#:write-attribute(name=redelivery-delay, value=")
                .append(ArtemisSession.REDELIVERY_DELAY_MS).append(")\n")
                // WildFly's model gives max-redelivery-delay the default 0 (Artemis's own default is ten times the
                // delay), and Artemis caps the delay at it: without this line every redelivery comes at once.
                .append(messaging).append("/address-setting=#:write-attribute(name=max-redelivery-delay, value=")
                .append(ArtemisSession.REDELIVERY_DELAY_MS).append(")\n");
        for (String queue : List.of("orders", "service", "crash", "ack")) {
            cli.append(messaging).append("/jms-queue=").append(queue).append(":add(entries=[java:/jms/queue/")
                    .append(queue).append("])\n");
        }
        // What the deployments read from the server's system properties: the test database, where the server's JMS
        // objects are (JmsServlet), and its transaction manager (PortableCrashListener). In the configuration, so that
        // Arquillian's server and the ones KilledServerIT starts from a copy of it read the same.
        Map<String, String> properties = new LinkedHashMap<>();
        properties.put("inbox.db.url", url);
        properties.put("inbox.db.user", user);
        properties.put("inbox.db.password", password);
        properties.put("txinbox.it.jms.connectionFactory", "java:/ConnectionFactory");
        properties.put("txinbox.it.jms.queuePrefix", "java:/jms/queue/");
        properties.put("txinbox.it.jms.deadLetterQueue", "java:/jms/queue/DLQ");
        properties.put("txinbox.it.transactionManager", "java:jboss/TransactionManager");
        properties.put("txinbox.it.server", "wildfly");
        properties.forEach((name, value) -> property(cli, "/system-property=" + name, value));
        return cli.append("run-batch\n").append("stop-embedded-server\n").toString();
    }

    private static void property(StringBuilder cli, String address, String value) {
        cli.append(address).append(":add(value=").append(quote(value)).append(")\n");
    }

    private static String quote(String value) {
        return "\"" + (value == null ? "" : value.replace("\\", "\\\\").replace("\"", "\\\"")) + "\"";
    }

}
