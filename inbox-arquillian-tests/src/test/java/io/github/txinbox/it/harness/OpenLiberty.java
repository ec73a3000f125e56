package io.github.txinbox.it.harness;

import io.github.txinbox.InboxSettings;
import io.github.txinbox.dev.ChildProcess;
import io.github.txinbox.it.app.TestDatabase;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.logging.Logger;
import org.jboss.shrinkwrap.api.exporter.ZipExporter;
import org.jboss.shrinkwrap.api.spec.WebArchive;

/**
 * Open Liberty: a server-level datasource, messaging engine queues and activation specifications in its server.xml;
 * its own EclipseLink. Its set-up writes a new server directory {@value #SERVER} with a {@code server.xml} holding what
 * an application using txinbox must configure on Open Liberty, and a {@code jvm.options}.
 *
 * <ul>
 *   <li>the PostgreSQL driver as a library, and the datasource {@code jdbc/inbox-it}: an XA one or, with
 *       {@code txinbox.it.datasource=local}, a non-XA one ({@code javax.sql.ConnectionPoolDataSource});</li>
 *   <li>the embedded messaging engine with the portable suite's queues, each delivering a message at most
 *       {@value ArtemisSession#MAX_DELIVERY_ATTEMPTS} times before its exception destination, the queue
 *       {@value ArtemisSession#DEAD_LETTER_QUEUE};</li>
 *   <li>a connection factory, the queues and the activation specifications that the deployment's
 *       {@code ibm-ejb-jar-bnd.xml} names;</li>
 *   <li>with the non-XA datasource, MicroProfile Reactive Messaging and its Config, for the Kafka tests (the
 *       {@code liberty-kafka} connector; the Kafka client comes in each deployment);</li>
 *   <li>every endpoint on 127.0.0.1, and what Arquillian needs (the local JMX connector, the MBean update trigger,
 *       the adapter's support feature).</li>
 * </ul>
 */
public final class OpenLiberty extends Server {

    /** The server's name in {@code -Dit.server}. */
    static final String NAME = "liberty";

    /** The name of the server the tests run. */
    static final String SERVER = "txinbox";

    private static final String DATA_SOURCE = "jdbc/inbox-it";

    /** Liberty's HTTP port in the tests, also in arquillian.xml. */
    static final int HTTP_PORT = 9280;

    /**
     * The HTTP port of the servers started by hand, on 127.0.0.1: not WildFly's ({@link StandaloneServer#HTTP_PORT}),
     * whose leg runs beside this one in {@code .ci/run}.
     */
    static final int STANDALONE_HTTP_PORT = 9380;

    /** The port of the Kafka broker of an Open Liberty run, and its controller's the next. */
    static final int KAFKA_PORT = 19192;

    /** The features of the Kafka tests: Reactive Messaging, with its {@code liberty-kafka} connector, and Config. */
    private static final String KAFKA_FEATURES = "        <feature>mpConfig-3.1</feature>\n"
            + "        <feature>mpReactiveMessaging-3.0</feature>\n";

    private static final Logger LOG = Logger.getLogger(OpenLiberty.class.getName());

    /** What Arquillian's adapter needs in the server: the local JMX connector, and its support feature. */
    private static final String ARQUILLIAN_FEATURES = "        <feature>localConnector-1.0</feature>\n"
            + "        <feature>usr:arquillian-support-jakarta-2.1</feature>\n";

    OpenLiberty() {
        super(NAME, DATA_SOURCE);
    }

    /**
     * With the XA datasource Open Liberty runs without the {@code mpConfig} feature, and the inbox reads its settings
     * from system properties; with the non-XA one it runs MicroProfile Reactive Messaging for the Kafka tests, which
     * brings MicroProfile Config.
     */
    @Override
    public boolean hasMicroProfileConfig() {
        return Server.nonXa();
    }

    /** The {@code mpReactiveMessaging-3.0} feature, with the non-XA datasource only (Kafka has no XA). */
    @Override
    public String kafkaConnector() {
        return LIBERTY_KAFKA;
    }

    /** Not WildFly's port: the WildFly non-XA leg, with its own broker, may run at the same time in the other lane. */
    @Override
    public int kafkaPort() {
        return KAFKA_PORT;
    }

    /**
     * Its embedded messaging engine does not wait when failed messages go to an exception destination: the queue
     * attribute {@code redeliveryInterval} applies only without one, after the delivery limit, and the activation
     * specification has no delay.
     */
    @Override
    public boolean brokerDelaysRedelivery() {
        return false;
    }

    private static Path home() {
        return Path.of(Server.required("txinbox.it.liberty.home"));
    }

    @Override
    public Path log() {
        return home().resolve("usr/servers/" + SERVER + "/logs/messages.log");
    }

    @Override
    public void setUp() throws IOException {
        Path server = home().resolve("usr/servers/" + SERVER);
        writeServer(server, HTTP_PORT, true);
        LOG.info(() -> "Open Liberty server " + server + " set up (datasource " + Server.dataSourceKind() + ")");
    }

    @Override
    public boolean startsStandalone() {
        return true;
    }

    /**
     * Starts Open Liberty as the server {@value #SERVER}{@code -NAME}, written on the first start with the WAR in its
     * {@code dropins}; ready once the application has started and the server says it is ready (the application's
     * message comes before its HTTP endpoint may listen). The session's database only, no further JVM options.
     */
    @Override
    public StandaloneServer startStandalone(String name, WebArchive war, Duration timeout, String databaseUrl,
            List<String> properties) throws IOException {
        if (!databaseUrl.equals(System.getProperty("inbox.db.url")) || !properties.isEmpty()) {
            throw new UnsupportedOperationException("Another database and JVM options: WildFly only, not " + this);
        }
        Path directory = StandaloneServer.directory(name);
        String serverName = SERVER + "-" + name;
        Path serverDirectory = home().resolve("usr/servers/" + serverName);
        if (!Files.exists(directory)) {
            Files.createDirectories(directory);
            writeServer(serverDirectory, STANDALONE_HTTP_PORT, false);
            Files.createDirectories(serverDirectory.resolve("dropins"));
            war.as(ZipExporter.class).exportTo(serverDirectory.resolve("dropins/" + war.getName()).toFile());
        }
        String context = war.getName().replace(".war", "");
        ChildProcess process = ChildProcess.start("Open Liberty " + serverName,
                List.of(home().resolve("bin/server").toString(), "run", serverName), directory, Map.of(),
                directory.resolve("console-" + System.currentTimeMillis() + ".log"));
        process.awaitReady(output -> output.contains("CWWKZ0001I: Application " + context + " started")
                && output.contains("CWWKF0011I"), output -> output.contains("CWWKZ0002E")
                || output.contains("CWWKZ0012I"), timeout);
        return new StandaloneServer(process, context, STANDALONE_HTTP_PORT);
    }

    /**
     * Writes a new server directory: its server.xml, jvm.options and the PostgreSQL driver.
     *
     * @param server     the server directory, deleted first if it exists
     * @param httpPort   the server's HTTP port on 127.0.0.1
     * @param arquillian whether Arquillian deploys to it: its adapter needs the local JMX connector (whose RMI
     *                   object, the JDK's local management agent, listens on a random port of every interface and
     *                   refuses connections from other hosts) and its support feature
     */
    private static void writeServer(Path server, int httpPort, boolean arquillian) throws IOException {
        Directories.delete(server);
        Files.createDirectories(server);
        Files.copy(Server.postgresqlDriver(), server.resolve("postgresql.jar"),
                StandardCopyOption.REPLACE_EXISTING);
        Files.writeString(server.resolve("server.xml"), serverXml(httpPort, arquillian));
        Files.write(server.resolve("jvm.options"), List.of(
                "-Xmx768m",
                "-Djava.io.tmpdir=" + Server.workDirectory() + "/tmp",
                "-Dinbox.db.url=" + System.getProperty("inbox.db.url"),
                "-Dinbox.db.user=" + System.getProperty("inbox.db.user"),
                "-Dinbox.db.password=" + System.getProperty("inbox.db.password"),
                "-Dtxinbox.it.jms.connectionFactory=jms/txinbox-cf",
                "-Dtxinbox.it.jms.queuePrefix=jms/",
                "-Dtxinbox.it.jms.deadLetterQueue=jms/DLQ",
                "-Dtxinbox.it.server=liberty",
                // With the XA datasource the server has no MicroProfile Config for HeldMarkerIT to set its bound in:
                // the whole leg runs with it, which no other test comes near (their transactions hold a marker for
                // milliseconds).
                "-D" + InboxSettings.CLAIM_MAX_WAIT + "=" + HeldMarker.CLAIM_MAX_WAIT));
    }

    private static String serverXml(int httpPort, boolean arquillian) {
        boolean xa = !Server.nonXa();
        StringBuilder queues = new StringBuilder();
        StringBuilder resources = new StringBuilder();
        for (String queue : List.of("orders", "service", "crash", "ack")) {
            queues.append("        <queue id=\"").append(queue).append("\" maxRedeliveryCount=\"")
                    .append(ArtemisSession.MAX_DELIVERY_ATTEMPTS).append("\" exceptionDestination=\"")
                    .append(ArtemisSession.DEAD_LETTER_QUEUE).append("\"/>\n");
            resources.append("    <jmsQueue id=\"").append(queue).append("-queue\" jndiName=\"jms/").append(queue)
                    .append("\">\n        <properties.wasJms queueName=\"").append(queue).append("\"/>\n")
                    .append("    </jmsQueue>\n")
                    .append("    <jmsActivationSpec id=\"txinbox/").append(queue).append("\" maxConcurrency=\"4\">\n")
                    .append("        <properties.wasJms destinationRef=\"").append(queue)
                    .append("-queue\" destinationType=\"jakarta.jms.Queue\"/>\n")
                    .append("    </jmsActivationSpec>\n");
        }
        return """
                <?xml version="1.0" encoding="UTF-8"?>
                <server description="txinbox integration tests">
                    <featureManager>
                        <feature>servlet-6.0</feature>
                        <feature>cdi-4.0</feature>
                        <feature>persistence-3.1</feature>
                        <feature>jdbc-4.3</feature>
                        <feature>enterpriseBeansLite-4.0</feature>
                        <feature>mdb-4.0</feature>
                        <feature>messagingClient-3.0</feature>
                        <feature>messagingServer-3.0</feature>
                        <feature>concurrent-3.0</feature>
                        <feature>restfulWS-3.1</feature>
                        <feature>jsonb-3.0</feature>
                %s%s    </featureManager>

                    <httpEndpoint id="defaultHttpEndpoint" host="127.0.0.1" httpPort="%d" httpsPort="-1"/>
                    <wasJmsEndpoint host="127.0.0.1" wasJmsPort="-1" wasJmsSSLPort="-1"/>
                    <applicationMonitor updateTrigger="mbean"/>

                    <messagingEngine>
                %s        <queue id="%s"/>
                    </messagingEngine>
                    <jmsConnectionFactory jndiName="jms/txinbox-cf">
                        <properties.wasJms/>
                    </jmsConnectionFactory>
                %s    <jmsQueue jndiName="jms/DLQ">
                        <properties.wasJms queueName="%s"/>
                    </jmsQueue>

                    <library id="postgresql">
                        <file name="${server.config.dir}/postgresql.jar"/>
                    </library>
                    <dataSource id="inbox-it" jndiName="%s" type="%s">
                        <jdbcDriver libraryRef="postgresql"/>
                        <properties.postgresql URL="%s" user="%s" password="%s" currentSchema="%s"
                                               applicationName="txinbox-it-container"/>
                        <connectionManager minPoolSize="1" maxPoolSize="16"/>
                    </dataSource>
                </server>
                """.formatted(xa ? "" : KAFKA_FEATURES, arquillian ? ARQUILLIAN_FEATURES : "", httpPort, queues,
                ArtemisSession.DEAD_LETTER_QUEUE, resources, ArtemisSession.DEAD_LETTER_QUEUE, DATA_SOURCE,
                xa ? "javax.sql.XADataSource" : "javax.sql.ConnectionPoolDataSource",
                xml(System.getProperty("inbox.db.url")), xml(System.getProperty("inbox.db.user")),
                xml(System.getProperty("inbox.db.password")), TestDatabase.SCHEMA);
    }

    private static String xml(String value) {
        return value == null ? "" : value.replace("&", "&amp;").replace("\"", "&quot;").replace("<", "&lt;");
    }

}
