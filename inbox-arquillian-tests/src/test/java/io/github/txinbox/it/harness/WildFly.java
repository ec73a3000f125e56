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
 * the CLI script docs/servers.md gives users (docs-examples' {@code wildfly-setup.cli}), run with WildFly's own CLI on
 * an embedded (offline) server, in a copy of {@code standalone-full.xml} named {@value #CONFIG}, and the tests' own
 * additions:
 *
 * <ul>
 *   <li>the datasource {@code java:jboss/datasources/InboxIT}: the script's non-XA one with the tests' schema, or, on
 *       the XA leg, an XA one ({@code PGXADataSource}) in its place;</li>
 *   <li>the other queues of the portable suite, and the broker's redelivery for every queue: at most
 *       {@value ArtemisSession#MAX_DELIVERY_ATTEMPTS} deliveries, {@value ArtemisSession#REDELIVERY_DELAY_MS} ms
 *       apart, then the queue {@code DLQ}.</li>
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
    public String kafkaConnector() {
        return SMALLRYE_KAFKA;
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
        Path configuration = home.resolve("standalone/configuration");
        Files.copy(configuration.resolve("standalone-full.xml"), configuration.resolve(CONFIG),
                StandardCopyOption.REPLACE_EXISTING);
        Path script = work.resolve("wildfly-setup.cli");
        Files.writeString(script, script(home));
        Path log = work.resolve("wildfly-setup.log");
        Files.deleteIfExists(log);
        ChildProcess.run("WildFly's CLI", List.of(home.resolve("bin/jboss-cli.sh").toString(), "--file=" + script),
                home, Map.of(), log, Duration.ofMinutes(3));
        LOG.info(() -> "WildFly set up in " + home + " (" + CONFIG + ", datasource " + Server.dataSourceKind() + ")");
    }

    @Override
    public boolean startsStandalone() {
        return true;
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

    /**
     * The set-up docs/servers.md prints for users (docs-examples' {@code wildfly-setup.cli}), its placeholders replaced
     * by the run's driver and database; then what the tests need on top of it: the datasource's schema and pool (or,
     * with XA, an XA datasource in place of the plain one), the suite's other queues, the suite's redelivery values
     * for every queue, and the system properties the deployments read.
     */
    private String script(Path home) throws IOException {
        String url = System.getProperty("inbox.db.url");
        String user = System.getProperty("inbox.db.user");
        String password = System.getProperty("inbox.db.password");
        Path usersSetUp = Path.of(Server.required("txinbox.it.wildfly.setup"));
        String users = Files.readString(usersSetUp);
        Map<String, String> placeholders = new LinkedHashMap<>();
        placeholders.put("/path/to/postgresql.jar", Server.postgresqlDriver().toString());
        placeholders.put("OrdersDS", "InboxIT");
        placeholders.put("\"jdbc:postgresql://127.0.0.1:5432/orders\"", quote(url));
        placeholders.put("user-name=\"orders\"", "user-name=" + quote(user));
        placeholders.put("password=\"secret\"", "password=" + quote(password));
        for (Map.Entry<String, String> placeholder : placeholders.entrySet()) {
            if (!users.contains(placeholder.getKey())) {
                throw new IllegalStateException(usersSetUp + " no longer holds " + placeholder.getKey()
                        + ", which the WildFly legs replace with the run's own value");
            }
            users = users.replace(placeholder.getKey(), placeholder.getValue());
        }
        String datasources = "/subsystem=datasources";
        String plainDataSource = datasources + "/data-source=InboxIT";
        if (!Server.nonXa()) {
            List<String> lines = users.lines().toList();
            List<String> kept = lines.stream().filter(line -> !line.startsWith(plainDataSource + ":add(")).toList();
            if (kept.size() != lines.size() - 1) {
                throw new IllegalStateException(usersSetUp + " should add one " + plainDataSource);
            }
            users = String.join("\n", kept) + "\n";
        }
        // The CLI's module add refuses a module that is there already, as a re-run leaves it.
        Directories.delete(home.resolve("modules/org/postgresql"));
        StringBuilder cli = new StringBuilder()
                .append("embed-server --server-config=").append(CONFIG).append(" --std-out=echo\n")
                .append(users)
                .append("batch\n");
        if (Server.nonXa()) {
            cli.append(plainDataSource).append(":write-attribute(name=min-pool-size, value=1)\n")
                    .append(plainDataSource).append(":write-attribute(name=max-pool-size, value=16)\n");
            property(cli, plainDataSource + "/connection-properties=currentSchema", TestDatabase.SCHEMA);
            property(cli, plainDataSource + "/connection-properties=ApplicationName", "txinbox-it-container");
        } else {
            String dataSource = datasources + "/xa-data-source=InboxIT";
            cli.append(dataSource).append(":add(jndi-name=").append(dataSource()).append(", driver-name=postgresql, ")
                    .append("user-name=").append(quote(user)).append(", password=").append(quote(password))
                    .append(", min-pool-size=1, max-pool-size=16)\n");
            property(cli, dataSource + "/xa-datasource-properties=URL", url);
            property(cli, dataSource + "/xa-datasource-properties=CurrentSchema", TestDatabase.SCHEMA);
            property(cli, dataSource + "/xa-datasource-properties=ApplicationName", "txinbox-it-container");
        }
        String messaging = "/subsystem=messaging-activemq/server=default";
        for (String queue : List.of("service", "crash", "ack")) {
            cli.append(messaging).append("/jms-queue=").append(queue).append(":add(entries=[java:/jms/queue/")
                    .append(queue).append("])\n");
        }
        // The suite's redelivery (a few quick attempts) for every queue, the users' queue orders included.
        for (String match : List.of("#", "jms.queue.orders")) {
            String setting = messaging + "/address-setting=" + match;
            cli.append(setting).append(":write-attribute(name=max-delivery-attempts, value=")
                    .append(ArtemisSession.MAX_DELIVERY_ATTEMPTS).append(")\n")
                    .append(setting).append(":write-attribute(name=redelivery-delay, value=")
                    .append(ArtemisSession.REDELIVERY_DELAY_MS).append(")\n")
                    .append(setting).append(":write-attribute(name=redelivery-multiplier, value=1.0)\n")
                    .append(setting).append(":write-attribute(name=max-redelivery-delay, value=")
                    .append(ArtemisSession.REDELIVERY_DELAY_MS).append(")\n");
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
