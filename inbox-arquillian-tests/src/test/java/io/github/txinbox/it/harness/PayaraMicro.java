package io.github.txinbox.it.harness;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Payara Micro, the default server: the deployment defines its datasource ({@code TestDataSourceDefinition}), and
 * message-driven beans reach the test JVM's Artemis broker through the test resource adapter. Arquillian starts a
 * server per deployment; {@link PayaraMicroProcess} starts one by hand.
 */
public final class PayaraMicro extends Server {

    /** The server's name in {@code -Dit.server}. */
    static final String NAME = "payara";

    /** The JNDI name of the datasource the deployment defines, as the test persistence units name it. */
    static final String DATA_SOURCE = "java:app/jdbc/inbox-it";

    /** The system property holding {@link #jvmOptions} for {@code arquillian.xml}. */
    static final String ARQUILLIAN_OPTIONS = "txinbox.it.payaraCmdOptions";

    PayaraMicro() {
        super(NAME, DATA_SOURCE);
    }

    @Override
    public boolean deploymentDefinesDataSource() {
        return true;
    }

    @Override
    public boolean usesTestBroker() {
        return true;
    }

    @Override
    public Path log() {
        throw new UnsupportedOperationException("Payara Micro runs a server per deployment");
    }

    /**
     * Publishes the JVM options of the servers Arquillian starts ({@value #ARQUILLIAN_OPTIONS}, which
     * {@code arquillian.xml} reads), and writes the post-boot command file that deploys the test resource adapter
     * before each test WAR.
     */
    @Override
    public void setUp() throws IOException {
        System.setProperty(ARQUILLIAN_OPTIONS, String.join(" ",
                jvmOptions(System.getProperty("inbox.db.url"), Server.required("txinbox.it.artemis.port"))));
        Path rar = Path.of(Server.required("txinbox.it.rar"));
        Path commands = Path.of(Server.required("txinbox.it.postbootCommands"));
        if (!Files.isRegularFile(rar)) {
            throw new IllegalStateException("No resource adapter at " + rar + ": run the tests through Maven");
        }
        Files.createDirectories(commands.getParent());
        // The adapter must be deployed before the WAR whose message-driven beans use it.
        Files.writeString(commands, "deploy " + rar.toAbsolutePath() + System.lineSeparator());
    }

    /**
     * The JVM options of every Payara Micro of the run, the one Arquillian starts and those the tests start by hand:
     * the heap, the temporary directory, the system properties the deployments read (the database, the broker's
     * port, the server and the kind of datasource), then the leg's own options ({@code txinbox.it.payaraJvmOptions}).
     *
     * @param databaseUrl the JDBC URL the deployments read as {@code inbox.db.url}
     * @param brokerPort  the port of the broker on 127.0.0.1
     * @return the options
     */
    static List<String> jvmOptions(String databaseUrl, String brokerPort) {
        List<String> options = new ArrayList<>(List.of(
                "-Xmx512m",
                "-Djava.io.tmpdir=" + Server.workDirectory() + "/tmp",
                "-Dinbox.db.url=" + databaseUrl,
                "-Dinbox.db.user=" + System.getProperty("inbox.db.user"),
                "-Dinbox.db.password=" + System.getProperty("inbox.db.password"),
                "-Dtxinbox.it.artemis.port=" + brokerPort,
                "-Dtxinbox.it.server=" + NAME,
                "-Dtxinbox.it.datasource=" + Server.dataSourceKind()));
        String leg = System.getProperty("txinbox.it.payaraJvmOptions", "").trim();
        if (!leg.isEmpty()) {
            options.addAll(List.of(leg.split("\\s+")));
        }
        return options;
    }
}
