package io.github.txinbox.it.harness;

import java.io.File;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import org.jboss.shrinkwrap.api.spec.WebArchive;

/**
 * The server a test run deploys to, named by the system property {@code txinbox.it.server} (the build's
 * {@code -Dit.server=...}), and everything that differs between servers: its set-up once per run (datasource,
 * queues, redelivery, all on 127.0.0.1), where the datasource comes from, its log, its descriptors' folder and how a
 * test starts one by hand to kill it. One class per server; everything else in the tests is plain Jakarta EE.
 */
public abstract sealed class Server permits PayaraMicro, WildFly, OpenLiberty, GlassFish {

    private final String name;
    private final String dataSource;

    Server(String name, String dataSource) {
        this.name = name;
        this.dataSource = dataSource;
    }

    /**
     * Returns the server of this run.
     *
     * @return the server named by {@code txinbox.it.server}, Payara Micro when it is not set
     * @throws IllegalStateException when it names no known server
     */
    public static Server current() {
        String name = System.getProperty("txinbox.it.server", "payara").trim().toLowerCase(Locale.ROOT);
        return switch (name) {
            case PayaraMicro.NAME -> new PayaraMicro();
            case WildFly.NAME -> new WildFly();
            case OpenLiberty.NAME -> new OpenLiberty();
            case GlassFish.NAME -> new GlassFish();
            default -> throw new IllegalStateException("txinbox.it.server is '" + name
                    + "'; expected payara, wildfly, liberty or glassfish");
        };
    }

    /**
     * Tells whether this run's datasource is non-XA: the system property {@code txinbox.it.datasource} (the build's
     * {@code -Dit.datasource=...}) is {@code local}. The database then runs with PostgreSQL's default
     * {@code max_prepared_transactions = 0}, and the datasource is the one one-phase resource of each transaction.
     *
     * @return true on a non-XA run, false on an XA one (the default)
     */
    public static boolean nonXa() {
        String kind = System.getProperty("txinbox.it.datasource", "xa").trim();
        if (!kind.equals("xa") && !kind.equals("local")) {
            throw new IllegalStateException("txinbox.it.datasource is '" + kind + "'; expected xa or local");
        }
        return kind.equals("local");
    }

    /**
     * Returns this run's kind of datasource, as {@code txinbox.it.datasource} names it.
     *
     * @return {@code local} on a non-XA run ({@link #nonXa()}), {@code xa} otherwise
     */
    static String dataSourceKind() {
        return nonXa() ? "local" : "xa";
    }

    /**
     * Returns the server's name, as {@code -Dit.server} gives it.
     *
     * @return {@code payara}, {@code wildfly}, {@code liberty} or {@code glassfish}
     */
    public final String name() {
        return name;
    }

    @Override
    public final String toString() {
        return name;
    }

    /**
     * Returns the JNDI name of the datasource the test persistence unit uses on this server.
     *
     * @return the name
     */
    public final String dataSource() {
        return dataSource;
    }

    /**
     * Sets the server up once per test run, after PostgreSQL (and the test broker, where the server uses it) and
     * before Arquillian starts or reaches it: what an application using txinbox must configure on it. A set-up that
     * fails leaves no process running.
     */
    public abstract void setUp() throws IOException;

    /** Stops what {@link #setUp()} left running when the run ends; nothing by default. */
    public void tearDown() {
    }

    /**
     * Returns the log of the server that Arquillian runs, where a failed deployment's cause is written.
     *
     * @return the log file
     */
    public abstract Path log();

    /**
     * Whether the tests start this server by hand ({@link #startStandalone}).
     *
     * @return {@code false} unless the server's class says otherwise
     */
    public boolean startsStandalone() {
        return false;
    }

    /**
     * Starts a server of this kind by hand, beside the one Arquillian runs, in a directory of its own under
     * {@code target/killed/NAME} that is kept across restarts (the broker's store, the transaction log), with one WAR
     * and the same configuration as the Arquillian server; waits until the WAR runs. For what Arquillian cannot do:
     * kill the server with SIGKILL and start it again on the same data.
     *
     * @param name        the directory's name
     * @param war         the WAR, exported into the directory on the first start
     * @param timeout     how long the start may take
     * @param databaseUrl the JDBC URL of its datasource: the session's, or another database's (same user)
     * @param properties  further {@code -Dname=value} options of the server's JVM
     * @return the running server
     * @throws UnsupportedOperationException on a server the tests do not start by hand this way, or with another
     *                                       database or JVM options where the server does not take them
     */
    public StandaloneServer startStandalone(String name, WebArchive war, Duration timeout, String databaseUrl,
            List<String> properties) throws IOException {
        throw new UnsupportedOperationException(this + " is not started by hand with StandaloneServer");
    }

    /**
     * Starts a server of this kind by hand as {@link #startStandalone} does, in a new directory, with its transaction
     * recovery covering an XA datasource on the given database and running every few seconds: for a test that leaves a
     * branch in doubt and expects the server to end it by itself. The WAR's persistence unit uses that datasource.
     *
     * @param name            the directory's name, under {@code target/killed}, emptied first
     * @param war             the WAR
     * @param timeout         how long the start may take
     * @param databaseUrl     the JDBC URL of the datasource (the session's user)
     * @param recoverySeconds how often recovery runs
     * @return the running server
     * @throws UnsupportedOperationException on a server whose XA recovery the tests do not drive
     */
    public StandaloneServer startRecovering(String name, WebArchive war, Duration timeout, String databaseUrl,
            int recoverySeconds) throws IOException {
        throw new UnsupportedOperationException(this + " is not started by hand with transaction recovery");
    }

    /**
     * Tells whether the deployment defines its own datasource, or the server provides it.
     *
     * @return true on Payara Micro
     */
    public boolean deploymentDefinesDataSource() {
        return false;
    }

    /**
     * Tells whether the test JVM's own Artemis broker is the one the deployments use.
     *
     * @return true on Payara Micro
     */
    public boolean usesTestBroker() {
        return false;
    }

    /**
     * Tells whether the server gives each application MicroProfile Config, which reads the application's
     * {@code META-INF/microprofile-config.properties}.
     *
     * @return false on the Open Liberty test server, which runs without the {@code mpConfig} feature, so that the
     *         inbox reads its settings from system properties alone
     */
    public boolean hasMicroProfileConfig() {
        return true;
    }

    /**
     * Tells whether a deployment finds the transaction manager itself in JNDI, with which the portable crash points
     * that hold a commit's second phase enlist their resource.
     *
     * @return true on WildFly ({@code java:jboss/TransactionManager}) and Payara Micro
     *         ({@code java:appserver/TransactionManager})
     */
    public boolean exposesTransactionManager() {
        return false;
    }

    /**
     * Tells whether the server runs MicroProfile Reactive Messaging with a Kafka connector, so that a test run with the
     * non-XA datasource starts a Kafka broker ({@link KafkaBroker}) and the Kafka tests (tag {@code kafka}) can run on
     * it (Kafka has no XA).
     *
     * @return true on WildFly and Open Liberty
     */
    public final boolean hasKafkaConnector() {
        return kafkaConnector() != null;
    }

    /**
     * Returns the name of the server's Kafka connector, which the channels of a deployment name and which decides how
     * they are configured ({@link Deployments#kafkaChannel}) and which consumer reads them.
     *
     * @return {@value #SMALLRYE_KAFKA} on WildFly, {@value #LIBERTY_KAFKA} on Open Liberty, null on the others
     */
    public String kafkaConnector() {
        return null;
    }

    /** SmallRye's Kafka connector, WildFly's. */
    public static final String SMALLRYE_KAFKA = "smallrye-kafka";

    /** Open Liberty's Kafka connector, which reads the Kafka client from the application. */
    public static final String LIBERTY_KAFKA = "liberty-kafka";

    /**
     * Returns the port of the run's Kafka broker on 127.0.0.1 ({@link KafkaBroker}); its controller listens on the
     * next. Each server with a connector has its own, as the legs of {@code .ci/run} run side by side.
     *
     * @return {@value KafkaBroker#PORT} here
     */
    public int kafkaPort() {
        return KafkaBroker.PORT;
    }

    /**
     * Tells whether this server's broker waits before it redelivers a message whose delivery failed.
     *
     * @return false on Open Liberty
     */
    public boolean brokerDelaysRedelivery() {
        return true;
    }

    /**
     * Returns the directory of this server's descriptors among the test resources.
     *
     * @return {@code servers/} and the server's name
     */
    public String descriptors() {
        return "servers/" + name();
    }

    /**
     * Returns a system property the build sets.
     *
     * @param property the property
     * @return its value
     * @throws IllegalStateException when it is not set (the tests were not started by Maven)
     */
    public static String required(String property) {
        String value = System.getProperty(property);
        if (value == null || value.isBlank()) {
            throw new IllegalStateException(property + " is not set: run the leg through Maven (mvn verify "
                    + "-Dit.server=" + current().name() + ")");
        }
        return value;
    }

    /**
     * Returns the PostgreSQL driver among the deployment's libraries, which the build copies.
     *
     * @return the jar
     */
    static Path postgresqlDriver() {
        File[] drivers = new File(required("txinbox.it.deploymentLibs"))
                .listFiles((directory, name) -> name.startsWith("postgresql-") && name.endsWith(".jar"));
        if (drivers == null || drivers.length != 1) {
            throw new IllegalStateException("Expected one PostgreSQL driver in "
                    + required("txinbox.it.deploymentLibs"));
        }
        return drivers[0].toPath();
    }

    /**
     * Returns the working directory of the run, under {@code target}.
     *
     * @return the directory
     */
    static Path workDirectory() {
        return Path.of(required("txinbox.it.workDir"));
    }
}
