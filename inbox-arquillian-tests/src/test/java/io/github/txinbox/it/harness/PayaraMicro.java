package io.github.txinbox.it.harness;

import io.github.txinbox.dev.ChildProcess;
import io.github.txinbox.it.app.TestDatabase;
import io.github.txinbox.it.deployer.DeploymentsServlet;
import java.io.IOException;
import java.net.URI;
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
 * server for the whole run, on a free port of 127.0.0.1, with the resource adapter and the deployer application
 * ({@link io.github.txinbox.it.deployer}), into which {@link PayaraMicroAdapter} deploys each test class's WAR in turn.
 * Further servers are started by hand ({@link #start(Path, Duration)} and its variants, {@link #startStandalone},
 * {@link #startRecovering}), as {@link StandaloneServer}s: for what a shared server cannot show, a boot with a failed
 * deployment, a kill with SIGKILL, a restart on the same transaction log, several nodes on one queue.
 */
public final class PayaraMicro extends Server {

    /** The server's name in {@code -Dit.server}. */
    static final String NAME = "payara";

    /** The JNDI name of the datasource the deployment defines, as the test persistence units name it. */
    static final String DATA_SOURCE = "java:app/jdbc/inbox-it";

    /** The HTTP port of the shared server on 127.0.0.1, a free one taken by {@link #setUp()}; 0 before. */
    private static volatile int httpPort;

    /** The context root of the deployer application. */
    static final String DEPLOYER = "txinbox-deployer";

    /** The JDBC connection pool of the servers {@link #serverDataSource} sets up. */
    static final String SERVER_POOL = "txinbox-crash-pool";

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

    @Override
    public boolean exposesTransactionManager() {
        return true;
    }

    /**
     * Returns the HTTP port of the shared server.
     *
     * @return the port
     * @throws IllegalStateException before {@link #setUp()} started it
     */
    static int httpPort() {
        if (httpPort == 0) {
            throw new IllegalStateException("The shared Payara Micro has not been started (PayaraMicro.setUp)");
        }
        return httpPort;
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
        int port = ArtemisSession.freePort();
        List<String> command = command(List.of(deployer), List.of("--port", String.valueOf(port)),
                System.getProperty("txinbox.it.artemis.port"), System.getProperty("inbox.db.url"));
        ChildProcess process = ChildProcess.start("Payara Micro (shared)", command, Server.workDirectory(), Map.of(),
                sharedLog());
        process.awaitReady(output -> READY.matcher(output).find(), output -> false, BOOT);
        shared = process;
        httpPort = port;
    }

    @Override
    public boolean startsStandalone() {
        return true;
    }

    /**
     * Starts Payara Micro by hand in {@code target/killed/NAME} on a free port of 127.0.0.1,
     * with the test resource adapter (connected to the session's broker) and the WAR, exported there on the first
     * start; waits until it has booted.
     */
    @Override
    public StandaloneServer startStandalone(String name, WebArchive war, Duration timeout, String databaseUrl,
            List<String> properties) throws IOException {
        Path directory = StandaloneServer.directory(name);
        Files.createDirectories(directory);
        Path file = directory.resolve(war.getName());
        if (!Files.exists(file)) {
            war.as(ZipExporter.class).exportTo(file.toFile());
        }
        int port = ArtemisSession.freePort();
        List<String> command = command(List.of(file), List.of("--port", String.valueOf(port)),
                System.getProperty("txinbox.it.artemis.port"), databaseUrl);
        command.addAll(1, properties);
        ChildProcess process = ChildProcess.start("Payara Micro " + name, command, directory, Map.of(),
                directory.resolve("console-" + System.currentTimeMillis() + ".log"));
        process.awaitReady(output -> READY.matcher(output).find(), output -> false, timeout);
        return new StandaloneServer(process, war.getName().replace(".war", ""), port);
    }

    /**
     * Payara recovers the JDBC resources of the server, not a deployment's {@code @DataSourceDefinition}: the server
     * gets an XA pool on the database by pre-boot commands ({@link #serverDataSource}), with its connections validated
     * (a database restart breaks them all), its transaction log in the directory, automatic recovery on and the
     * transaction service's {@code pending-txn-cleanup-interval} at {@code recoverySeconds}.
     */
    @Override
    public StandaloneServer startRecovering(String name, WebArchive war, Duration timeout, String databaseUrl,
            int recoverySeconds) throws IOException {
        Path directory = StandaloneServer.directory(name);
        Directories.delete(directory);
        Files.createDirectories(directory.resolve("tx-log"));
        String pool = "set resources.jdbc-connection-pool." + SERVER_POOL;
        List<String> options = new ArrayList<>(serverDataSource(directory, true, databaseUrl, List.of(
                "set configs.config.server-config.transaction-service.property.pending-txn-cleanup-interval="
                        + recoverySeconds,
                pool + ".is-connection-validation-required=true",
                pool + ".connection-validation-method=custom-validation",
                pool + ".validation-classname=org.glassfish.api.jdbc.validation.PostgresConnectionValidation",
                pool + ".fail-all-connections=true")));
        int port = ArtemisSession.freePort();
        options.addAll(List.of("--port", String.valueOf(port)));
        Path file = directory.resolve(war.getName());
        Deployments.withPersistenceXml(war, "crash-persistence.xml").as(ZipExporter.class).exportTo(file.toFile());
        List<String> command = command(List.of(file), options, System.getProperty("txinbox.it.artemis.port"),
                databaseUrl);
        ChildProcess process = ChildProcess.start("Payara Micro " + name, command, directory, Map.of(),
                directory.resolve("console-" + System.currentTimeMillis() + ".log"));
        process.awaitReady(output -> READY.matcher(output).find(), output -> false, timeout);
        return new StandaloneServer(process, war.getName().replace(".war", ""), port);
    }

    /**
     * The Payara Micro options that give a server started by hand the JDBC resource {@code jdbc/txinbox-crash}
     * ({@code crash-persistence.xml} names it) on a pool {@value #SERVER_POOL} of the server, created by pre-boot
     * commands so that it exists when recovery runs, with the driver on the server's class path; its transaction log
     * in {@code DIRECTORY/tx-log} (which must exist), automatic recovery on.
     *
     * @param directory       the server's directory, where the pre-boot command file is written
     * @param xa              an XA pool ({@code PGXADataSource}), or a plain one ({@code PGSimpleDataSource})
     * @param databaseUrl     the JDBC URL of the database (the session's user and password)
     * @param prebootCommands further pre-boot commands, run after the shared ones and these
     * @return the options
     */
    static List<String> serverDataSource(Path directory, boolean xa, String databaseUrl,
            List<String> prebootCommands) throws IOException {
        Path txLog = directory.resolve("tx-log");
        if (!Files.isDirectory(txLog)) {
            throw new IllegalStateException("No directory " + txLog);
        }
        List<String> preboot = new ArrayList<>(
                Files.readAllLines(Path.of(Server.required("txinbox.it.prebootCommands"))));
        preboot.add("set configs.config.server-config.transaction-service.tx-log-dir=" + txLog.toAbsolutePath());
        preboot.add("set configs.config.server-config.transaction-service.automatic-recovery=true");
        URI db = URI.create(databaseUrl.substring("jdbc:".length()));
        preboot.add("create-jdbc-connection-pool --datasourceclassname "
                + (xa ? "org.postgresql.xa.PGXADataSource --restype javax.sql.XADataSource"
                        : "org.postgresql.ds.PGSimpleDataSource --restype javax.sql.DataSource")
                + " --property serverName=" + db.getHost() + ":portNumber=" + db.getPort() + ":databaseName="
                + db.getPath().substring(1) + ":user=" + System.getProperty("inbox.db.user") + ":password="
                + System.getProperty("inbox.db.password") + ":currentSchema=" + TestDatabase.SCHEMA
                + " " + SERVER_POOL);
        preboot.add("create-jdbc-resource --connectionpoolid " + SERVER_POOL + " jdbc/txinbox-crash");
        preboot.addAll(prebootCommands);
        Path prebootFile = Files.write(directory.resolve("preboot-commands.txt"), preboot);
        return List.of("--prebootcommandfile", prebootFile.toString(),
                "--addLibs", Server.postgresqlDriver().toString());
    }

    @Override
    public void tearDown() {
        ChildProcess running = shared;
        shared = null;
        httpPort = 0;
        if (running != null) {
            running.close();
        }
    }

    /**
     * Starts Payara Micro with the test resource adapter and one WAR, and waits until it has booted.
     *
     * @param war     the WAR to deploy
     * @param timeout how long the boot may take
     * @return the running server
     */
    public static StandaloneServer start(Path war, Duration timeout) {
        return start(war, timeout, List.of());
    }

    /**
     * Starts Payara Micro with the test resource adapter, one WAR and further Payara Micro options (a
     * {@code --prebootcommandfile} or {@code --postbootcommandfile} among them replaces the shared one), and waits until it has booted.
     *
     * @param war          the WAR to deploy
     * @param timeout      how long the boot may take
     * @param microOptions further Payara Micro options
     * @return the running server
     */
    public static StandaloneServer start(Path war, Duration timeout, List<String> microOptions)
            {
        return start(war, timeout, microOptions, System.getProperty("txinbox.it.artemis.port"));
    }

    /**
     * Starts Payara Micro as {@link #start(Path, Duration, List)} does, with the resource adapter connecting to the
     * broker on another port of 127.0.0.1 than the session broker's.
     *
     * @param war          the WAR to deploy
     * @param timeout      how long the boot may take
     * @param microOptions further Payara Micro options
     * @param brokerPort   the port of the broker
     * @return the running server
     */
    public static StandaloneServer start(Path war, Duration timeout, List<String> microOptions, String brokerPort)
            {
        return start(war, timeout, microOptions, brokerPort, System.getProperty("inbox.db.url"));
    }

    /**
     * Starts Payara Micro as {@link #start(Path, Duration, List, String)} does, with the deployments' datasources
     * pointing at another PostgreSQL database (same user and password) than the session's.
     *
     * @param war          the WAR to deploy
     * @param timeout      how long the boot may take
     * @param microOptions further Payara Micro options
     * @param brokerPort   the port of the broker
     * @param databaseUrl  the JDBC URL the deployments read as {@code inbox.db.url}
     * @return the running server
     */
    public static StandaloneServer start(Path war, Duration timeout, List<String> microOptions, String brokerPort,
            String databaseUrl) {
        return start(List.of(war), timeout, microOptions, brokerPort, databaseUrl);
    }

    /**
     * Starts Payara Micro with the test resource adapter and several WARs, deployed in this order (one that fails
     * does not stop the next), and waits until it has booted.
     *
     * @param wars         the WARs to deploy
     * @param timeout      how long the boot may take
     * @param microOptions further Payara Micro options
     * @param brokerPort   the port of the broker
     * @param databaseUrl  the JDBC URL the deployments read as {@code inbox.db.url}
     * @return the running server
     */
    public static StandaloneServer start(List<Path> wars, Duration timeout, List<String> microOptions,
            String brokerPort, String databaseUrl) {
        List<String> command = command(wars, microOptions, brokerPort, databaseUrl);
        int port = ArtemisSession.freePort();
        command.addAll(List.of("--port", String.valueOf(port)));
        Path log = Server.workDirectory().resolve("payara-micro").resolve(wars.get(0).getFileName() + "-"
                + System.nanoTime() + ".log");
        ChildProcess process = ChildProcess.start("Payara Micro", command, Server.workDirectory(), Map.of(), log);
        process.awaitOutput(output -> READY.matcher(output).find(), output -> false, timeout);
        return new StandaloneServer(process, wars.get(0).getFileName().toString().replace(".war", ""), port);
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
                "-Dtxinbox.it.datasource=" + Server.dataSourceKind(),
                // Where the portable crash points find the transaction manager (PortableCrashListener).
                "-Dtxinbox.it.transactionManager=java:appserver/TransactionManager"));
        String leg = System.getProperty("txinbox.it.payaraJvmOptions", "").trim();
        if (!leg.isEmpty()) {
            options.addAll(List.of(leg.split("\\s+")));
        }
        return options;
    }
}
