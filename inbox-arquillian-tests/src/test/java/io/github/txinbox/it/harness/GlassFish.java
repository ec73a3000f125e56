package io.github.txinbox.it.harness;

import io.github.txinbox.dev.ChildProcess;
import io.github.txinbox.it.app.TestDatabase;
import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.logging.Logger;
import java.util.regex.Pattern;

/**
 * GlassFish (full profile): a server-level datasource and queues, its own OpenMQ broker and EclipseLink. Its set-up
 * creates a new domain {@value #DOMAIN} (ports from {@value #PORT_BASE}, all on 127.0.0.1), configures it with
 * {@code asadmin}, stops and starts it, and keeps it running until the run ends (Arquillian's adapter for GlassFish 8
 * connects to a running server). A set-up that fails stops the domain it started. It holds what an application using
 * txinbox must configure on GlassFish.
 *
 * <ul>
 *   <li>the PostgreSQL driver in the domain's {@code lib}, a JDBC connection pool (XA, or with
 *       {@code txinbox.it.datasource=local} a non-XA {@code ConnectionPoolDataSource}) and the JDBC resource
 *       {@code jdbc/inbox-it};</li>
 *   <li>a connection factory and the portable suite's queues as JMS resources of the embedded OpenMQ broker (the
 *       redelivery settings are activation properties of each bean, in the deployment's {@code ejb-jar.xml});</li>
 *   <li>every listener on 127.0.0.1 (written into the new domain's domain.xml and the broker's instance settings),
 *       the JMX connector off.</li>
 * </ul>
 */
public final class GlassFish extends Server {

    /** The server's name in {@code -Dit.server}. */
    static final String NAME = "glassfish";

    /** The domain the tests run. */
    static final String DOMAIN = "txinbox";

    /** The domain's port base: admin 12048, HTTP 12080, OpenMQ 12076. */
    static final int PORT_BASE = 12000;

    private static final Logger LOG = Logger.getLogger(GlassFish.class.getName());

    /** How asadmin reports a command that failed, in multimode too. */
    private static final Pattern FAILED_COMMAND = Pattern.compile("Command \\S+ failed\\.");

    private static final Pattern NETWORK_LISTENER_WITHOUT_ADDRESS =
            Pattern.compile("<network-listener (?![^>]*\\baddress=)");

    private static final String DATA_SOURCE = "jdbc/inbox-it";

    /** The GlassFish whose domain this run started, to be stopped when the run ends. */
    private Path running;

    GlassFish() {
        super(NAME, DATA_SOURCE);
    }

    private static Path home() {
        return Path.of(Server.required("txinbox.it.glassfish.home"));
    }

    @Override
    public Path log() {
        return home().resolve("domains/" + DOMAIN + "/logs/server.log");
    }

    @Override
    public void setUp() throws IOException {
        Path home = home();
        Path work = Server.workDirectory();
        Path domain = home.resolve("domains/" + DOMAIN);
        try {
            Directories.delete(domain);
            Path log = work.resolve("glassfish-setup.log");
            Files.deleteIfExists(log);
            asadmin(home, log, "create-domain", "--portbase", Integer.toString(PORT_BASE), "--nopassword=true",
                    DOMAIN);
            Files.copy(Server.postgresqlDriver(), domain.resolve("lib/postgresql.jar"),
                    StandardCopyOption.REPLACE_EXISTING);
            onLoopback(domain.resolve("config/domain.xml"));
            // The embedded OpenMQ broker reads its instance's settings when it first starts: its services, and its
            // JMX connector's RMI object, would otherwise listen on every interface.
            Path broker = domain.resolve("imq/instances/imqbroker/props/config.properties");
            Files.createDirectories(broker.getParent());
            Files.write(broker, List.of("imq.hostname=127.0.0.1", "imq.jmx.hostname=127.0.0.1",
                    "imq.jmx.connector.activelist="));
            Path commands = Files.write(work.resolve("glassfish-setup.asadmin"), commands());
            asadmin(home, log, "start-domain", DOMAIN);
            running = home;
            long before = Files.size(log);
            asadmin(home, log, "--port", Integer.toString(PORT_BASE + 48), "multimode", "--file",
                    commands.toString());
            // multimode goes on after a command fails and exits with the last command's status.
            byte[] written = Files.readAllBytes(log);
            List<String> failed = new String(written, (int) before, written.length - (int) before,
                    StandardCharsets.UTF_8).lines()
                    .filter(line -> FAILED_COMMAND.matcher(line).matches()).toList();
            if (!failed.isEmpty()) {
                throw new IllegalStateException("GlassFish's set-up failed: " + String.join(" ", failed) + "; see "
                        + log);
            }
            // The JVM options and the JMX connector's switch apply from the next start. A stop and a start, each
            // with its own time limit, rather than restart-domain, which once waited for ever for the new server.
            asadmin(home, log, "stop-domain", DOMAIN);
            running = null;
            asadmin(home, log, "start-domain", DOMAIN);
            running = home;
        } catch (IOException | RuntimeException e) {
            stopAfterFailedSetUp(home, work, e);
            throw e;
        }
        LOG.info(() -> "GlassFish domain " + domain + " set up and started");
    }

    @Override
    public void tearDown() {
        Path home = running;
        running = null;
        if (home != null) {
            asadmin(home, Server.workDirectory().resolve("glassfish-setup.log"), "stop-domain", DOMAIN);
        }
    }

    /**
     * Stops the domain a failed set-up may have left running, killing it if it does not stop, so that no server
     * outlives the run; a failure to stop is added to the set-up's failure.
     */
    private void stopAfterFailedSetUp(Path home, Path work, Exception failure) {
        running = null;
        try {
            asadmin(home, work.resolve("glassfish-setup.log"), "stop-domain", "--kill=true", DOMAIN);
        } catch (RuntimeException e) {
            failure.addSuppressed(e);
        }
    }

    private List<String> commands() {
        // The tests need no remote JMX; its RMI objects would listen on every interface.
        // A new domain's server has no JMS host of its own until its first start; the broker then listens on the
        // host named here.
        List<String> commands = new ArrayList<>(List.of(
                "set configs.config.server-config.admin-service.jmx-connector.system.enabled=false",
                "set configs.config.server-config.jms-service.jms-host.default_JMS_host.host=127.0.0.1"));
        commands.add("create-jvm-options " + String.join(":", List.of(
                "-Dinbox.db.url=" + System.getProperty("inbox.db.url"),
                "-Dinbox.db.user=" + System.getProperty("inbox.db.user"),
                "-Dinbox.db.password=" + System.getProperty("inbox.db.password"),
                "-Dtxinbox.it.jms.connectionFactory=jms/txinbox-cf",
                "-Dtxinbox.it.jms.queuePrefix=jms/",
                "-Dtxinbox.it.jms.deadLetterQueue=queue:mq.sys.dmq",
                "-Dtxinbox.it.server=glassfish").stream().map(GlassFish::escape).toList()));
        URI db = URI.create(System.getProperty("inbox.db.url").substring("jdbc:".length()));
        boolean xa = !Server.nonXa();
        commands.add("create-jdbc-connection-pool --datasourceclassname "
                + (xa ? "org.postgresql.xa.PGXADataSource --restype javax.sql.XADataSource"
                        : "org.postgresql.ds.PGConnectionPoolDataSource --restype javax.sql.ConnectionPoolDataSource")
                + " --steadypoolsize 1 --maxpoolsize 16 --property " + String.join(":", List.of(
                        "serverName=" + db.getHost(), "portNumber=" + db.getPort(),
                        "databaseName=" + db.getPath().substring(1),
                        "user=" + escape(System.getProperty("inbox.db.user")),
                        "password=" + escape(System.getProperty("inbox.db.password")),
                        "currentSchema=" + TestDatabase.SCHEMA, "ApplicationName=txinbox-it-container"))
                + " inbox-it-pool");
        commands.add("create-jdbc-resource --connectionpoolid inbox-it-pool " + DATA_SOURCE);
        commands.add("create-jms-resource --restype jakarta.jms.ConnectionFactory jms/txinbox-cf");
        for (String queue : List.of("orders", "service", "crash", "ack")) {
            commands.add("create-jms-resource --restype jakarta.jms.Queue --property Name=" + queue + " jms/" + queue);
        }
        return commands;
    }

    /**
     * Puts every listener of a new domain on 127.0.0.1 before its first start: the HTTP, admin and IIOP listeners, the
     * JMX connector and the OpenMQ broker's host (asadmin could set them only on a running domain, which would listen
     * on every interface until its restart).
     */
    private static void onLoopback(Path domainXml) throws IOException {
        String xml = Files.readString(domainXml)
                .replace("address=\"0.0.0.0\"", "address=\"127.0.0.1\"")
                .replace("host=\"localhost\"", "host=\"127.0.0.1\"");
        xml = NETWORK_LISTENER_WITHOUT_ADDRESS.matcher(xml).replaceAll("<network-listener address=\"127.0.0.1\" ");
        // The server's own JMS service, which a new domain creates at its first start with the host "localhost" (so
        // listening on every interface).
        String serverConfig = "<config name=\"server-config\">";
        if (xml.contains(serverConfig) && !xml.substring(xml.indexOf(serverConfig)).split("</config>", 2)[0]
                .contains("<jms-service")) {
            xml = xml.replace(serverConfig, serverConfig + "<jms-service type=\"EMBEDDED\" "
                    + "default-jms-host=\"default_JMS_host\" addresslist-behavior=\"priority\"><jms-host "
                    + "name=\"default_JMS_host\" host=\"127.0.0.1\" port=\"${JMS_PROVIDER_PORT}\" "
                    + "admin-user-name=\"admin\" admin-password=\"admin\" lazy-init=\"true\"/></jms-service>");
        }
        Files.writeString(domainXml, xml);
    }

    /** Escapes the colons that asadmin reads as separators, as a command file needs them. */
    private static String escape(String value) {
        return value == null ? "" : value.replace(":", "\\\\:");
    }

    private static void asadmin(Path home, Path log, String... arguments) {
        List<String> command = new ArrayList<>();
        command.add(home.resolve("bin/asadmin").toString());
        command.addAll(List.of(arguments));
        ChildProcess.run("asadmin", command, home, Map.of(), log, Duration.ofMinutes(3));
    }
}
