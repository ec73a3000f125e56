package io.github.txinbox.it.harness;

import io.github.txinbox.it.app.NonXaDataSourceDefinition;
import io.github.txinbox.it.app.TestDataSourceDefinition;
import io.github.txinbox.it.app.TestDatabase;
import io.github.txinbox.it.crash.CrashPoint;
import io.github.txinbox.it.kafka.KafkaOrders;
import io.github.txinbox.it.kafka.KafkaOrdersConsumer;
import io.github.txinbox.it.kafka.liberty.LibertyKafkaOrdersConsumer;
import io.github.txinbox.it.messaging.OrderIdResolver;
import io.github.txinbox.it.messaging.OrderService;
import io.github.txinbox.it.messaging.FailingStep;
import io.github.txinbox.it.messaging.Orders;
import io.github.txinbox.it.portable.DecisionLog;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.stream.Collectors;
import org.jboss.shrinkwrap.api.Archive;
import org.jboss.shrinkwrap.api.ShrinkWrap;
import org.jboss.shrinkwrap.api.asset.Asset;
import org.jboss.shrinkwrap.api.asset.StringAsset;
import org.jboss.shrinkwrap.api.exporter.ZipExporter;
import org.jboss.shrinkwrap.api.spec.WebArchive;

/**
 * Builds test deployments: a WAR with the test class (and its nested classes), the shared test application in
 * {@link io.github.txinbox.it.app}, the test persistence unit, and in WEB-INF/lib the jars the POM puts in runtime
 * scope (inbox-cdi as built by this reactor, Hibernate, the PostgreSQL driver; no Hibernate where the server's default
 * provider serves the tests), copied there by the build. On a server that provides the datasource itself
 * ({@link Server#deploymentDefinesDataSource()}), the deployment leaves out {@link TestDataSourceDefinition} and its
 * persistence units name the server's datasource. On Payara the deployment carries {@link TestDataSourceDefinition}
 * (XA) or, on a non-XA run ({@link Server#nonXa()}), {@link NonXaDataSourceDefinition}.
 */
public final class Deployments {

    private Deployments() {
    }

    /**
     * Writes a deployment to the run's work directory, for a server started by hand or the shared Payara Micro,
     * replacing an older file of the same name.
     *
     * @param archive the deployment
     * @return the WAR file
     */
    public static Path export(Archive<?> archive) {
        Path file = Path.of(System.getProperty("txinbox.it.workDir"), archive.getName());
        try {
            Files.createDirectories(file.getParent());
            Files.deleteIfExists(file);
        } catch (IOException e) {
            throw new UncheckedIOException("Could not replace " + file, e);
        }
        archive.as(ZipExporter.class).exportTo(file.toFile());
        return file;
    }

    /**
     * Builds the deployment of one test class.
     *
     * @param testClass the test class, added with its nested classes
     * @param extra     further classes this deployment needs
     * @return the WAR
     */
    public static WebArchive war(Class<?> testClass, Class<?>... extra) {
        WebArchive war = ShrinkWrap.create(WebArchive.class, testClass.getSimpleName() + ".war")
                .addClass(testClass)
                .addClasses(extra)
                .addPackage(TestDatabase.class.getPackage())
                .addAsResource(persistenceXml("test-persistence.xml"), "META-INF/persistence.xml")
                .addAsWebInfResource("test-beans.xml", "beans.xml")
                .addAsLibraries(libraries("txinbox.it.deploymentLibs"));
        if (!Server.current().deploymentDefinesDataSource()) {
            war.deleteClass(TestDataSourceDefinition.class);
            war.deleteClass(NonXaDataSourceDefinition.class);
        } else {
            war.deleteClass(Server.nonXa() ? TestDataSourceDefinition.class : NonXaDataSourceDefinition.class);
        }
        return war;
    }

    /**
     * Gives a deployment settings of the library where this run's server reads them from the application (its
     * MicroProfile Config, from {@code META-INF/microprofile-config.properties}); on a server without MicroProfile
     * Config (the Open Liberty test server) the deployment is left as it is and the library runs with its defaults
     * there, since such a file would fail its start. A test that needs a setting on every server checks it through
     * {@link Server#hasMicroProfileConfig()}.
     *
     * @param war      the deployment
     * @param settings each {@code name=value}
     * @return the same deployment
     */
    public static WebArchive withSettings(WebArchive war, String... settings) {
        if (Server.current().hasMicroProfileConfig()) {
            war.addAsResource(new StringAsset(String.join("\n", settings) + "\n"),
                    "META-INF/microprofile-config.properties");
        }
        return war;
    }

    /**
     * Adds the portable suite's application ({@link io.github.txinbox.it.portable}, with the order handling and the
     * crash point it uses) and binds its message-driven beans to their queues on this run's server, with the server's
     * descriptors from the test resources under {@code servers/}: {@code ejb-jar.xml} (activation configuration), and
     * Payara's {@code glassfish-ejb-jar.xml} (the resource adapter) or Open Liberty's {@code ibm-ejb-jar-bnd.xml} (the
     * activation specifications of its server.xml) where the server has one.
     *
     * @param war the deployment
     * @return the same deployment
     */
    public static WebArchive withMessaging(WebArchive war) {
        war.addPackage(DecisionLog.class.getPackage())
                .addClasses(Orders.class, OrderService.class, OrderIdResolver.class, FailingStep.class, CrashPoint.class,
                        CrashPoint.Phase.class);
        String directory = Server.current().descriptors();
        for (String descriptor : new String[] {"ejb-jar.xml", "glassfish-ejb-jar.xml", "ibm-ejb-jar-bnd.xml"}) {
            if (Deployments.class.getClassLoader().getResource(directory + "/" + descriptor) != null) {
                war.addAsWebInfResource(directory + "/" + descriptor, descriptor);
            }
        }
        return war;
    }

    /**
     * Adds the Kafka consumer ({@link io.github.txinbox.it.kafka}) and the decision log, with its channel configured
     * ({@link #kafkaChannel}).
     *
     * @param war         the deployment
     * @param topic       the topic the channel reads
     * @param group       the consumer group
     * @param concurrency how many copies of the channel consume at once (SmallRye's {@code concurrency}; one on
     *                    Open Liberty, whose connector has no such setting: {@link #kafkaCopies})
     * @param deadLetters the dead-letter topic of failed records
     * @param more        further settings of the channel, such as the consumer's {@code auto.commit.interval.ms}
     * @return the same deployment
     */
    public static WebArchive withKafkaConsumer(WebArchive war, String topic, String group, int concurrency,
            String deadLetters, Map<String, String> more) {
        return withKafkaChannels(withKafkaOrders(war).addClass(DecisionLog.class),
                kafkaChannel(KafkaOrdersConsumer.CHANNEL, topic, group, concurrency, deadLetters, more));
    }

    /**
     * Adds the order handler {@link KafkaOrders} and the consumer of its channel in the shape of this run's connector:
     * {@link KafkaOrdersConsumer} on SmallRye's, {@link LibertyKafkaOrdersConsumer} on Open Liberty's; and the stall
     * after the commit that the crash and rebalance tests ask for by an order's id ({@code AfterCommitStall}).
     *
     * @param war the deployment
     * @return the same deployment
     */
    public static WebArchive withKafkaOrders(WebArchive war) {
        return withConsumerFor(war.addPackage(KafkaOrders.class.getPackage()).addClass(CrashPoint.class),
                KafkaOrdersConsumer.class, LibertyKafkaOrdersConsumer.class);
    }

    /**
     * Keeps in a deployment the one of two consumers of the same channels that fits this run's connector: both read
     * them, so a deployment must not hold the other.
     *
     * @param war       the deployment
     * @param smallRye  the consumer for SmallRye's connector
     * @param liberty   the consumer for Open Liberty's
     * @return the same deployment
     */
    public static WebArchive withConsumerFor(WebArchive war, Class<?> smallRye, Class<?> liberty) {
        war.deleteClass(libertyKafka() ? smallRye : liberty);
        return war.addClass(libertyKafka() ? liberty : smallRye);
    }

    /**
     * Tells whether this run's Kafka connector is Open Liberty's.
     *
     * @return true on Open Liberty
     */
    public static boolean libertyKafka() {
        return Server.LIBERTY_KAFKA.equals(Server.current().kafkaConnector());
    }

    /**
     * Returns how many consumers a channel of the given concurrency puts in its group on this run's connector.
     *
     * @param concurrency the channel's {@code concurrency}
     * @return the same on SmallRye's connector, one on Open Liberty's
     */
    public static int kafkaCopies(int concurrency) {
        return libertyKafka() ? 1 : concurrency;
    }

    /**
     * Returns the settings of an incoming Kafka channel on the run's {@link KafkaBroker}, for this run's connector:
     * the topic, the group, string keys and values, the earliest offset for a new group, and what becomes of a record
     * that fails.
     * <ul>
     *   <li>SmallRye's ({@code smallrye-kafka}, WildFly): copies of the channel that consume at once, and the
     *       dead-letter-topic failure strategy;</li>
     *   <li>Open Liberty's ({@code liberty-kafka}): one consumer whatever the concurrency, the connector's own offset
     *       commits, and for the channel {@value KafkaOrdersConsumer#CHANNEL} the outgoing channel
     *       {@value LibertyKafkaOrdersConsumer#DEAD_LETTERS} to the dead-letter topic, which its consumer writes.</li>
     * </ul>
     *
     * @param channel     the channel's name
     * @param topic       the topic the channel reads
     * @param group       the consumer group
     * @param concurrency how many copies of the channel consume at once
     * @param deadLetters the dead-letter topic of failed records
     * @param more        further settings of the channel
     * @return the lines of {@code microprofile-config.properties}
     */
    public static String kafkaChannel(String channel, String topic, String group, int concurrency,
            String deadLetters, Map<String, String> more) {
        String connector = Server.current().kafkaConnector();
        Map<String, String> settings = new LinkedHashMap<>();
        settings.put("connector", connector);
        settings.put("topic", topic);
        settings.put("bootstrap.servers", KafkaBroker.current().bootstrapServers());
        settings.put("group.id", group);
        settings.put("auto.offset.reset", "earliest");
        settings.put("key.deserializer", "org.apache.kafka.common.serialization.StringDeserializer");
        settings.put("value.deserializer", "org.apache.kafka.common.serialization.StringDeserializer");
        Map<String, String> outgoing = new LinkedHashMap<>();
        if (libertyKafka()) {
            if (channel.equals(KafkaOrdersConsumer.CHANNEL)) {
                outgoing.put("connector", connector);
                outgoing.put("topic", deadLetters);
                outgoing.put("bootstrap.servers", KafkaBroker.current().bootstrapServers());
                outgoing.put("key.serializer", "org.apache.kafka.common.serialization.StringSerializer");
                outgoing.put("value.serializer", "org.apache.kafka.common.serialization.StringSerializer");
            }
        } else {
            settings.put("concurrency", Integer.toString(concurrency));
            settings.put("failure-strategy", "dead-letter-queue");
            settings.put("dead-letter-queue.topic", deadLetters);
        }
        settings.putAll(more);
        return properties("mp.messaging.incoming." + channel + ".", settings)
                + properties("mp.messaging.outgoing." + LibertyKafkaOrdersConsumer.DEAD_LETTERS + ".", outgoing);
    }

    /** The lines {@code PREFIXkey=value} of the settings, each ended by a newline. */
    private static String properties(String prefix, Map<String, String> settings) {
        return settings.entrySet().stream().map(setting -> prefix + setting.getKey() + "=" + setting.getValue() + "\n")
                .collect(Collectors.joining());
    }

    /**
     * Writes the deployment's {@code microprofile-config.properties} with Kafka channels, and the connector's own
     * address: the dead-letter producer of each copy of a SmallRye channel reads the connector's, not the channel's.
     * On Open Liberty, whose connector loads the Kafka client from the application, adds the client's jars too.
     *
     * @param war      the deployment
     * @param channels the channels' settings ({@link #kafkaChannel})
     * @return the same deployment
     */
    public static WebArchive withKafkaChannels(WebArchive war, String... channels) {
        String configuration = "mp.messaging.connector." + Server.current().kafkaConnector() + ".bootstrap.servers="
                + KafkaBroker.current().bootstrapServers() + "\n" + String.join("", channels);
        if (libertyKafka()) {
            war.addAsLibraries(libraries("txinbox.it.kafkaClientLibs"));
        }
        return war.addAsResource(new StringAsset(configuration), "META-INF/microprofile-config.properties");
    }

    /**
     * Replaces a deployment's persistence.xml.
     *
     * @param war      the deployment
     * @param resource the test resource to use instead of test-persistence.xml
     * @return the same deployment
     */
    public static WebArchive withPersistenceXml(WebArchive war, String resource) {
        war.delete("WEB-INF/classes/META-INF/persistence.xml");
        return war.addAsResource(persistenceXml(resource), "META-INF/persistence.xml");
    }

    /**
     * Returns the persistence.xml for the JPA provider and server of this run: with {@code txinbox.it.jpa} set to
     * {@code hibernate}, the resource as named (Hibernate in WEB-INF/lib, with Payara's settings); otherwise its
     * {@code default-provider-} twin, which names no provider (the server's default then serves it) and has no
     * Hibernate settings. The test datasource is renamed to the server's where the server provides it.
     *
     * @param resource the test resource written for Hibernate
     * @return the persistence.xml to deploy
     */
    public static Asset persistenceXml(String resource) {
        String name = "hibernate".equals(System.getProperty("txinbox.it.jpa", "hibernate"))
                ? resource : "default-provider-" + resource;
        String text;
        try (InputStream in = Deployments.class.getClassLoader().getResourceAsStream(name)) {
            if (in == null) {
                throw new IllegalStateException("No test resource " + name);
            }
            text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("Could not read " + name, e);
        }
        Server server = Server.current();
        if (!server.deploymentDefinesDataSource()) {
            text = text.replace("<jta-data-source>" + PayaraMicro.DATA_SOURCE + "</jta-data-source>",
                    "<jta-data-source>" + server.dataSource() + "</jta-data-source>");
        }
        return new StringAsset(text);
    }

    /**
     * Adds a second-level cache for Hibernate (hibernate-jcache with Caffeine) to a deployment's WEB-INF/lib.
     *
     * @param war the deployment
     * @return the same deployment
     */
    public static WebArchive withSecondLevelCache(WebArchive war) {
        return war.addAsLibraries(libraries("txinbox.it.cacheLibs"));
    }

    private static File[] libraries(String directoryProperty) {
        String directory = System.getProperty(directoryProperty);
        if (directory == null) {
            throw new IllegalStateException(directoryProperty + " is not set: run the tests through Maven "
                    + "(mvn verify), which copies the deployment's libraries");
        }
        File[] jars = new File(directory).listFiles((dir, name) -> name.endsWith(".jar"));
        if (jars == null || jars.length == 0) {
            throw new IllegalStateException("No libraries in " + directory + ": run the tests through Maven");
        }
        Arrays.sort(jars);
        return jars;
    }
}
