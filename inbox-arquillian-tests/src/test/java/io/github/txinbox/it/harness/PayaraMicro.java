package io.github.txinbox.it.harness;

import io.github.txinbox.dev.ChildProcess;
import io.github.txinbox.it.deployer.DeploymentsServlet;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import org.jboss.shrinkwrap.api.ShrinkWrap;
import org.jboss.shrinkwrap.api.exporter.ZipExporter;
import org.jboss.shrinkwrap.api.spec.WebArchive;

/**
 * Payara Micro, the default server: the deployment defines its datasource ({@code TestDataSourceDefinition}), and
 * message-driven beans reach the test JVM's Artemis broker through the test resource adapter. Its set-up starts one
 * server for the whole run, on 127.0.0.1:{@value #HTTP_PORT}, with the resource adapter and the deployer application
 * ({@link io.github.txinbox.it.deployer}), into which {@link PayaraMicroAdapter} deploys each test class's WAR in turn;
 * {@link PayaraMicroProcess} starts further servers by hand.
 */
public final class PayaraMicro extends Server {

    /** The server's name in {@code -Dit.server}. */
    static final String NAME = "payara";

    /** The JNDI name of the datasource the deployment defines, as the test persistence units name it. */
    static final String DATA_SOURCE = "java:app/jdbc/inbox-it";

    /** The HTTP port of the shared server, on 127.0.0.1. */
    static final int HTTP_PORT = 8480;

    /** The context root of the deployer application. */
    static final String DEPLOYER = "txinbox-deployer";

    /** How long a boot may take. */
    static final Duration BOOT = Duration.ofMinutes(3);

    /** What Payara Micro prints when it has booted and deployed what it was given. */
    static final Pattern READY = Pattern.compile("Payara Micro .* ready in");

    private ChildProcess shared;

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

    /**
     * Returns the log of the shared server.
     *
     * @return {@code target/payara/server.log}
     */
    static Path sharedLog() {
        return Server.workDirectory().resolve("payara").resolve("server.log");
    }

    @Override
    public Path log() {
        return sharedLog();
    }

    /**
     * Writes the post-boot command file that deploys the test resource adapter before any WAR, and starts the shared
     * server with the deployer application.
     */
    @Override
    public void setUp() throws IOException {
        Path rar = Path.of(Server.required("txinbox.it.rar"));
        Path commands = Path.of(Server.required("txinbox.it.postbootCommands"));
        if (!Files.isRegularFile(rar)) {
            throw new IllegalStateException("No resource adapter at " + rar + ": run the tests through Maven");
        }
        Files.createDirectories(commands.getParent());
        // The adapter must be deployed before the WAR whose message-driven beans use it.
        Files.writeString(commands, "deploy " + rar.toAbsolutePath() + System.lineSeparator());
        Path deployer = Server.workDirectory().resolve("payara").resolve(DEPLOYER + ".war");
        Files.deleteIfExists(deployer);
        ShrinkWrap.create(WebArchive.class, DEPLOYER + ".war").addPackage(DeploymentsServlet.class.getPackage())
                .as(ZipExporter.class).exportTo(deployer.toFile());
        Files.deleteIfExists(sharedLog());
        List<String> command = command(List.of(deployer), List.of("--port", String.valueOf(HTTP_PORT)),
                System.getProperty("txinbox.it.artemis.port"), System.getProperty("inbox.db.url"));
        // One server runs every class of the leg, one WAR after another: more heap than a server per class.
        command.add(1, "-Xmx1g");
        ChildProcess process = ChildProcess.start("Payara Micro (shared)", command, Server.workDirectory(), Map.of(),
                sharedLog());
        process.awaitReady(output -> READY.matcher(output).find(), output -> false, BOOT);
        shared = process;
    }

    @Override
    public void tearDown() {
        ChildProcess running = shared;
        shared = null;
        if (running != null) {
            running.close();
        }
    }

    /**
     * The command that starts a Payara Micro of this run: this run's JDK, {@link #jvmOptions}, the WARs, the shared
     * pre-boot and post-boot command files unless the options name their own, then the options and the leg's.
     *
     * @param wars         the WARs to deploy, in this order
     * @param microOptions further Payara Micro options
     * @param brokerPort   the port of the broker the resource adapter connects to
     * @param databaseUrl  the JDBC URL the deployments read as {@code inbox.db.url}
     * @return the command, which the caller may still change
     */
    static List<String> command(List<Path> wars, List<String> microOptions, String brokerPort, String databaseUrl) {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(jvmOptions(databaseUrl, brokerPort));
        command.addAll(List.of("-jar", System.getProperty("payara.microJar")));
        for (Path war : wars) {
            command.addAll(List.of("--deploy", war.toString()));
        }
        if (!microOptions.contains("--prebootcommandfile")) {
            command.addAll(List.of("--prebootcommandfile", System.getProperty("txinbox.it.prebootCommands")));
        }
        if (!microOptions.contains("--postbootcommandfile")) {
            command.addAll(List.of("--postbootcommandfile", System.getProperty("txinbox.it.postbootCommands")));
        }
        command.addAll(withLegOptions(microOptions));
        return command;
    }

    /**
     * Adds the Payara Micro options of this leg of the platform matrix (the system property
     * {@code txinbox.it.payaraMicroOptions}, {@code --nocluster} at least) to the caller's, joining the libraries of
     * both into one {@code --addLibs}, since Payara Micro keeps only one.
     */
    private static List<String> withLegOptions(List<String> microOptions) {
        List<String> options = new ArrayList<>();
        List<String> libraries = new ArrayList<>();
        List<String> all = new ArrayList<>(List.of(
                System.getProperty("txinbox.it.payaraMicroOptions", "").trim().split("\\s+")));
        all.addAll(microOptions);
        for (int i = 0; i < all.size(); i++) {
            String option = all.get(i);
            if (option.equals("--addLibs") && i + 1 < all.size()) {
                libraries.add(all.get(++i));
            } else if (!option.isEmpty()) {
                options.add(option);
            }
        }
        if (!libraries.isEmpty()) {
            options.add("--addLibs");
            options.add(String.join(":", libraries));
        }
        return options;
    }

    /**
     * The JVM options of every Payara Micro of the run, the shared one and those the tests start by hand: the heap,
     * the temporary directory, the system properties the deployments read (the database, the broker's port, the
     * server and the kind of datasource), then the leg's own options ({@code txinbox.it.payaraJvmOptions}).
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
