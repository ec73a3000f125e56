package io.github.txinbox.it.harness;

import io.github.txinbox.InboxSettings;

import io.github.txinbox.it.app.TestDatabase;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import java.util.logging.Logger;
import org.junit.platform.launcher.LauncherSession;
import org.junit.platform.launcher.LauncherSessionListener;

/**
 * Sets up the Open Liberty server of the Liberty leg once per test run, after {@link PostgresSession} and before
 * Arquillian starts it: a new server directory {@value #SERVER} with a {@code server.xml} holding what an application
 * using txinbox must configure on Open Liberty, and a {@code jvm.options}.
 *
 * <ul>
 *   <li>the PostgreSQL driver as a library, and the datasource {@code jdbc/inbox-it}: an XA one or, with
 *       {@code txinbox.it.datasource=local}, a non-XA one ({@code javax.sql.ConnectionPoolDataSource});</li>
 *   <li>the embedded messaging engine with the portable suite's queues, each delivering a message at most
 *       {@value ArtemisSession#MAX_DELIVERY_ATTEMPTS} times before its exception destination, the queue
 *       {@value ArtemisSession#DEAD_LETTER_QUEUE};</li>
 *   <li>a connection factory, the queues and the activation specifications that the deployment's
 *       {@code ibm-ejb-jar-bnd.xml} names;</li>
 *   <li>every endpoint on 127.0.0.1, and what Arquillian needs (the local JMX connector, the MBean update trigger,
 *       the adapter's support feature).</li>
 * </ul>
 */
public final class LibertySession implements LauncherSessionListener {

    /** The name of the server the tests run. */
    public static final String SERVER = "txinbox";

    /** Liberty's HTTP port in the tests, also in arquillian.xml. */
    static final int HTTP_PORT = 9280;

    private static final Logger LOG = Logger.getLogger(LibertySession.class.getName());

    /** What Arquillian's adapter needs in the server: the local JMX connector, and its support feature. */
    private static final String ARQUILLIAN_FEATURES = "        <feature>localConnector-1.0</feature>\n"
            + "        <feature>usr:arquillian-support-jakarta-2.1</feature>\n";

    @Override
    public void launcherSessionOpened(LauncherSession session) {
        if (Server.current() != Server.LIBERTY) {
            return;
        }
        Path home = Path.of(ServerSetup.required("txinbox.it.liberty.home"));
        Path server = home.resolve("usr/servers/" + SERVER);
        writeServer(server, HTTP_PORT, true);
        LOG.info(() -> "Open Liberty server " + server + " set up (datasource " + dataSourceKind() + ")");
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
    static void writeServer(Path server, int httpPort, boolean arquillian) {
        try {
            Directories.delete(server);
            Files.createDirectories(server);
            Files.copy(ServerSetup.postgresqlDriver(), server.resolve("postgresql.jar"),
                    StandardCopyOption.REPLACE_EXISTING);
            Files.writeString(server.resolve("server.xml"), serverXml(httpPort, arquillian));
            Files.write(server.resolve("jvm.options"), List.of(
                    "-Xmx768m",
                    "-Djava.io.tmpdir=" + ServerSetup.required("txinbox.it.workDir") + "/tmp",
                    "-Dinbox.db.url=" + System.getProperty("inbox.db.url"),
                    "-Dinbox.db.user=" + System.getProperty("inbox.db.user"),
                    "-Dinbox.db.password=" + System.getProperty("inbox.db.password"),
                    "-Dtxinbox.it.jms.connectionFactory=jms/txinbox-cf",
                    "-Dtxinbox.it.jms.queuePrefix=jms/",
                    "-Dtxinbox.it.jms.deadLetterQueue=jms/DLQ",
                    "-Dtxinbox.it.server=liberty",
                    // The server has no MicroProfile Config for HeldMarkerIT to set its bound in: the whole leg runs
                    // with it, which no other test comes near (their transactions hold a marker for milliseconds).
                    "-D" + InboxSettings.CLAIM_MAX_WAIT + "=" + HeldMarker.CLAIM_MAX_WAIT));
        } catch (IOException e) {
            throw new UncheckedIOException("Could not set up Open Liberty in " + server, e);
        }
    }

    private static String dataSourceKind() {
        return Server.nonXa() ? "local" : "xa";
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
                %s    </featureManager>

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
                """.formatted(arquillian ? ARQUILLIAN_FEATURES : "", httpPort, queues, ArtemisSession.DEAD_LETTER_QUEUE,
                resources, ArtemisSession.DEAD_LETTER_QUEUE, Server.LIBERTY.dataSource(),
                xa ? "javax.sql.XADataSource" : "javax.sql.ConnectionPoolDataSource",
                xml(System.getProperty("inbox.db.url")), xml(System.getProperty("inbox.db.user")),
                xml(System.getProperty("inbox.db.password")), TestDatabase.SCHEMA);
    }

    private static String xml(String value) {
        return value == null ? "" : value.replace("&", "&amp;").replace("\"", "&quot;").replace("<", "&lt;");
    }

}
