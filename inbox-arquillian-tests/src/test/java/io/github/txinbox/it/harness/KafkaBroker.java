package io.github.txinbox.it.harness;

import io.github.txinbox.dev.ChildProcess;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.logging.Logger;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.ConsumerGroupDescription;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.GroupState;
import org.apache.kafka.common.KafkaFuture;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.GroupIdNotFoundException;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;
import org.apache.kafka.common.serialization.StringSerializer;

/**
 * A real Apache Kafka broker on 127.0.0.1 for the tests: one KRaft node that is broker and controller at once, in a
 * JVM of its own that {@link ChildProcess} starts with this JVM's JDK (Kafka 4 brokers need Java 17 or later). Its
 * class path is the file the build writes (module test-kafka-broker, system property
 * {@code txinbox.it.kafka.classpath}): the {@code kafka_2.13} jar, its runtime dependencies and Log4j's SLF4J
 * binding, never this JVM's class path.
 *
 * <p>{@link #open()} deletes and formats its storage under the work directory ({@code kafka/} in
 * {@code txinbox.it.workDir}), so a run starts with no topic and no committed offset; it listens for clients on the
 * server's {@link Server#kafkaPort()} ({@value #PORT} on WildFly) and for its controller on the next, and is ready
 * when an {@link Admin} client sees it in {@code describeCluster}. Set for one node: replication factor 1 and one
 * partition for its internal topics, no delay before a group's first rebalance, topics created on first use with
 * {@code num.partitions=1}. Its output, Kafka's INFO log without the configuration dumps, goes to
 * {@code kafka/broker.log}.
 */
public final class KafkaBroker implements AutoCloseable {

    /** The port of the clients' listener on 127.0.0.1, unless the server names another ({@link Server#kafkaPort()}). */
    public static final int PORT = 19092;

    /** The node id of the one node, broker and controller. */
    public static final int NODE_ID = 1;

    /** How long each of the two steps may take: formatting the storage, and the start up to the first answer. */
    public static final Duration START = Duration.ofMinutes(2);

    /**
     * The cluster id the storage is formatted with: the 16 bytes of "txinbox-it-kafka" in Base64, the form Kafka's
     * {@code Uuid} prints (fixed, so that a log tells which cluster it came from).
     */
    static final String CLUSTER_ID = Base64.getUrlEncoder().withoutPadding()
            .encodeToString("txinbox-it-kafka".getBytes(StandardCharsets.US_ASCII));

    /** The broker's JVM: a small heap, and the client compiler and serial collector, cheaper for a short run. */
    private static final List<String> JVM_OPTIONS = List.of("-Xms64m", "-Xmx512m", "-XX:+UseSerialGC",
            "-XX:TieredStopAtLevel=1", "-Djava.awt.headless=true");

    /** Kafka's INFO log on standard output, without the dump of every setting each component logs at its start. */
    private static final String LOG4J2_PROPERTIES = """
            status = warn
            appender.console.type = Console
            appender.console.name = console
            appender.console.layout.type = PatternLayout
            appender.console.layout.pattern = [%d] %p %m (%c)%n
            rootLogger.level = info
            rootLogger.appenderRef.console.ref = console
            logger.config.name = org.apache.kafka.common.config.AbstractConfig
            logger.config.level = warn
            """;

    private static final Duration CLIENT_TIMEOUT = Duration.ofSeconds(30);

    private static final Logger LOG = Logger.getLogger(KafkaBroker.class.getName());

    /** The broker of this test run, from {@link #open()} to its {@link #close()}. */
    private static volatile KafkaBroker run;

    private final ChildProcess process;
    private final Path directory;
    private final String bootstrapServers;
    private final Admin admin;
    private KafkaProducer<String, String> producer;

    private KafkaBroker(ChildProcess process, Path directory, String bootstrapServers, Admin admin) {
        this.process = process;
        this.directory = directory;
        this.bootstrapServers = bootstrapServers;
        this.admin = admin;
    }

    /**
     * Starts the run's broker: its class path from {@code txinbox.it.kafka.classpath}, its directory
     * {@code kafka/} in {@code txinbox.it.workDir}, the server's {@link Server#kafkaPort()} and the next. Publishes
     * its address as the system property {@code txinbox.it.kafka.bootstrapServers}.
     *
     * @return the running broker
     * @throws IllegalStateException when a property is not set, a port is taken, or the broker fails to format or to
     *                               start in {@link #START} (the message says where its log is)
     */
    public static KafkaBroker open() {
        int port = Server.current().kafkaPort();
        KafkaBroker broker = open(Path.of(Server.required("txinbox.it.kafka.classpath")),
                Server.workDirectory().resolve("kafka"), port, port + 1);
        System.setProperty("txinbox.it.kafka.bootstrapServers", broker.bootstrapServers());
        run = broker;
        return broker;
    }

    /**
     * Returns the run's broker, which {@link TestRun} opened.
     *
     * @return the broker
     * @throws IllegalStateException when the run has none: its server has no Kafka connector
     *                               ({@link Server#hasKafkaConnector()}), or it runs with the XA datasource
     */
    public static KafkaBroker current() {
        KafkaBroker broker = run;
        if (broker == null) {
            throw new IllegalStateException("This test run has no Kafka broker: " + Server.current()
                    + (Server.current().hasKafkaConnector() ? " runs with the XA datasource, and Kafka has no XA "
                    + "(-Dit.datasource=local)" : " has no Kafka connector"));
        }
        return broker;
    }

    /**
     * Starts a broker: deletes its directory, formats its storage, starts its JVM and waits until it answers.
     *
     * @param classpathFile  the file that holds the broker's class path, entries separated by the platform's path
     *                       separator (what maven-dependency-plugin's {@code build-classpath} writes)
     * @param directory      its directory, deleted first: its configuration, data and logs
     * @param port           the clients' port on 127.0.0.1
     * @param controllerPort the controller's port on 127.0.0.1
     * @return the running broker
     * @throws IllegalStateException when a port is taken, or the broker fails to format or to start in
     *                               {@link #START} (the message says where its log is)
     */
    public static KafkaBroker open(Path classpathFile, Path directory, int port, int controllerPort) {
        String classpath = classpath(classpathFile);
        requireFree(port, "clients");
        requireFree(controllerPort, "controller");
        Path configuration = directory.resolve("server.properties");
        Path logConfiguration = directory.resolve("log4j2.properties");
        try {
            Directories.delete(directory);
            Files.createDirectories(directory);
            Files.writeString(configuration, serverProperties(directory.resolve("data"), port, controllerPort));
            Files.writeString(logConfiguration, LOG4J2_PROPERTIES);
        } catch (IOException e) {
            throw new UncheckedIOException("Could not write the Kafka broker's configuration in " + directory, e);
        }
        long started = System.nanoTime();
        ChildProcess.run("Kafka storage format", java(classpath, logConfiguration, "kafka.tools.StorageTool", "format",
                "--cluster-id", CLUSTER_ID, "--config", configuration.toString()), directory,
                Map.of(), directory.resolve("format.log"), START);
        Path log = directory.resolve("broker.log");
        ChildProcess process = ChildProcess.start("Kafka broker", java(classpath, logConfiguration, "kafka.Kafka",
                configuration.toString()), directory, Map.of(), log);
        String bootstrapServers = "127.0.0.1:" + port;
        Admin admin = null;
        try {
            process.awaitReady(output -> output.contains("Kafka Server started"),
                    output -> output.contains("Exiting Kafka"), START);
            admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers,
                    AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, (int) CLIENT_TIMEOUT.toMillis(),
                    AdminClientConfig.CLIENT_ID_CONFIG, "txinbox-it-harness"));
            Collection<Node> nodes = get(admin.describeCluster().nodes(), "describe the cluster at " + bootstrapServers,
                    log);
            if (nodes.size() != 1 || nodes.iterator().next().id() != NODE_ID) {
                throw new IllegalStateException("The Kafka broker at " + bootstrapServers + " shows the nodes " + nodes
                        + ", expected node " + NODE_ID + " alone; see " + log);
            }
        } catch (RuntimeException e) {
            if (admin != null) {
                admin.close(Duration.ofSeconds(5));
            }
            process.close();
            throw e;
        }
        long millis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started);
        LOG.info(() -> "Started the Kafka broker (pid " + process.pid() + ") on " + bootstrapServers + " in " + millis
                + " ms; log " + log);
        return new KafkaBroker(process, directory, bootstrapServers, admin);
    }

    /**
     * Returns the address clients connect to.
     *
     * @return {@code 127.0.0.1:port}, the value of the clients' {@code bootstrap.servers}
     */
    public String bootstrapServers() {
        return bootstrapServers;
    }

    /**
     * Creates a topic with replication factor 1, and waits until each of its partitions has a leader, so that a
     * producer or consumer started next finds it.
     *
     * @param name       the topic's name, not yet used in this run (the storage is new on each {@link #open()})
     * @param partitions how many partitions it has, 1 or more
     * @throws IllegalStateException when the broker refuses it (a topic of that name exists, for one)
     * @throws AssertionError        when it has no leaders in 30 s
     */
    public void createTopic(String name, int partitions) {
        if (partitions < 1) {
            throw new IllegalArgumentException("A topic needs 1 partition or more, not " + partitions + ": " + name);
        }
        Path log = log();
        get(admin.createTopics(List.of(new NewTopic(name, partitions, (short) 1))).all(),
                "create the topic " + name + " with " + partitions + " partitions", log);
        Await.until(CLIENT_TIMEOUT, "a leader for each of the " + partitions + " partitions of the topic " + name
                + " (see " + log + ")", () -> {
                    TopicDescription topic;
                    try {
                        topic = get(admin.describeTopics(List.of(name)).topicNameValues().get(name),
                                "describe the topic " + name, log);
                    } catch (IllegalStateException e) {
                        if (e.getCause() instanceof UnknownTopicOrPartitionException) {
                            // Created, but not yet in the metadata the broker answers with: ask again.
                            return false;
                        }
                        throw e;
                    }
                    return topic.partitions().size() == partitions
                            && topic.partitions().stream().allMatch(partition -> partition.leader() != null);
                });
    }

    /**
     * Creates a topic unless it exists (a deployment built twice, say).
     *
     * @param name       the topic's name
     * @param partitions how many partitions it has when it is created
     */
    public void createTopicIfAbsent(String name, int partitions) {
        if (!get(admin.listTopics().names(), "list the topics", log()).contains(name)) {
            createTopic(name, partitions);
        }
    }

    /**
     * Sends records with string keys and values, and waits until the broker has them all (every replica, one here).
     *
     * @param records the records
     * @throws IllegalStateException when the broker does not take one in 30 s
     */
    public void send(List<ProducerRecord<String, String>> records) {
        synchronized (this) {
            if (producer == null) {
                producer = new KafkaProducer<>(Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers,
                        ProducerConfig.ACKS_CONFIG, "all", ProducerConfig.CLIENT_ID_CONFIG, "txinbox-it-producer"),
                        new StringSerializer(), new StringSerializer());
            }
        }
        List<Future<?>> sent = records.stream().<Future<?>>map(producer::send)
                .toList();
        for (Future<?> record : sent) {
            try {
                record.get(CLIENT_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
            } catch (ExecutionException | TimeoutException e) {
                throw new IllegalStateException("Could not send a record to " + bootstrapServers + ": " + e
                        + "; see " + log(), e);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("Interrupted while sending records", e);
            }
        }
    }

    /**
     * Returns a consumer group's committed offset of each partition of a topic: the offset of the next record the
     * group would read, 0 where it has committed none.
     *
     * @param group the group
     * @param topic the topic
     * @return the offsets by partition
     */
    public Map<Integer, Long> committed(String group, String topic) {
        Map<TopicPartition, OffsetAndMetadata> offsets = get(admin.listConsumerGroupOffsets(group)
                .partitionsToOffsetAndMetadata(), "read the offsets of the group " + group, log());
        Map<Integer, Long> committed = new TreeMap<>();
        for (int partition = 0; partition < partitions(topic); partition++) {
            OffsetAndMetadata offset = offsets.get(new TopicPartition(topic, partition));
            committed.put(partition, offset == null ? 0L : offset.offset());
        }
        return committed;
    }

    /**
     * Returns the end offset of each partition of a topic: the offset its next record will have.
     *
     * @param topic the topic
     * @return the offsets by partition
     */
    public Map<Integer, Long> ends(String topic) {
        Map<TopicPartition, OffsetSpec> latest = new HashMap<>();
        for (int partition = 0; partition < partitions(topic); partition++) {
            latest.put(new TopicPartition(topic, partition), OffsetSpec.latest());
        }
        Map<Integer, Long> ends = new TreeMap<>();
        get(admin.listOffsets(latest).all(), "read the end offsets of " + topic, log())
                .forEach((partition, offset) -> ends.put(partition.partition(), offset.offset()));
        return ends;
    }

    /**
     * Counts the members of a consumer group: each consumer of the group that the group's coordinator knows now.
     *
     * @param group the group
     * @return how many; 0 for a group without members, or one the broker does not know
     */
    public int members(String group) {
        return describe(group).map(description -> description.members().size()).orElse(0);
    }

    /**
     * Tells whether a consumer group has settled with the given number of members: it has them all, and its last
     * rebalance has ended, so that each partition has its one consumer. Until then a rebalance can take a partition
     * from a consumer before that consumer has committed its offset, and the partition's next consumer reads the
     * record again.
     *
     * @param group   the group
     * @param members how many members it should have
     * @return whether it has that many and is stable
     */
    public boolean settled(String group, int members) {
        return describe(group).filter(description -> description.groupState() == GroupState.STABLE
                && description.members().size() == members).isPresent();
    }

    private Optional<ConsumerGroupDescription> describe(String group) {
        try {
            return Optional.of(get(admin.describeConsumerGroups(List.of(group)).describedGroups().get(group),
                    "describe the group " + group, log()));
        } catch (IllegalStateException e) {
            if (e.getCause() instanceof GroupIdNotFoundException) {
                return Optional.empty();
            }
            throw e;
        }
    }

    private int partitions(String topic) {
        return get(admin.describeTopics(List.of(topic)).topicNameValues().get(topic), "describe the topic " + topic,
                log()).partitions().size();
    }

    /**
     * Returns the administration client of the broker, open until {@link #close()}, for what {@link #createTopic}
     * does not cover (offsets of a group, a topic's end offsets).
     *
     * @return the client; its callers must not close it
     */
    public Admin admin() {
        return admin;
    }

    /**
     * Returns the broker's log: its standard output and error.
     *
     * @return the file
     */
    public Path log() {
        return directory.resolve("broker.log");
    }

    /**
     * Returns the process id of the broker's JVM.
     *
     * @return its pid
     */
    public long pid() {
        return process.pid();
    }

    /**
     * Stops the broker: SIGTERM to its JVM (a controlled shutdown, under a second here), SIGKILL after a minute. Its
     * directory stays, for a look at its log.
     */
    @Override
    public void close() {
        if (run == this) {
            run = null;
        }
        try {
            synchronized (this) {
                if (producer != null) {
                    producer.close(Duration.ofSeconds(5));
                }
            }
            admin.close(Duration.ofSeconds(5));
        } finally {
            process.close();
            if (bootstrapServers.equals(System.getProperty("txinbox.it.kafka.bootstrapServers"))) {
                System.clearProperty("txinbox.it.kafka.bootstrapServers");
            }
        }
    }

    private static List<String> java(String classpath, Path logConfiguration, String mainClass, String... arguments) {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(JVM_OPTIONS);
        command.add("-Dlog4j2.configurationFile=" + logConfiguration);
        command.add("-cp");
        command.add(classpath);
        command.add(mainClass);
        command.addAll(List.of(arguments));
        return command;
    }

    /**
     * The configuration of a one-node cluster: a static quorum of this node alone (so the storage is formatted
     * without {@code --standalone}), both listeners on 127.0.0.1, internal topics of one partition and one replica.
     */
    static String serverProperties(Path data, int port, int controllerPort) {
        return """
                process.roles=broker,controller
                node.id=%1$d
                controller.quorum.voters=%1$d@127.0.0.1:%3$d
                listeners=PLAINTEXT://127.0.0.1:%2$d,CONTROLLER://127.0.0.1:%3$d
                advertised.listeners=PLAINTEXT://127.0.0.1:%2$d
                listener.security.protocol.map=PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT
                inter.broker.listener.name=PLAINTEXT
                controller.listener.names=CONTROLLER
                log.dirs=%4$s
                num.partitions=1
                auto.create.topics.enable=true
                offsets.topic.replication.factor=1
                offsets.topic.num.partitions=1
                transaction.state.log.replication.factor=1
                transaction.state.log.min.isr=1
                transaction.state.log.num.partitions=1
                share.coordinator.state.topic.replication.factor=1
                share.coordinator.state.topic.min.isr=1
                group.initial.rebalance.delay.ms=0
                """.formatted(NODE_ID, port, controllerPort, data.toAbsolutePath());
    }

    private static String classpath(Path classpathFile) {
        try {
            String classpath = Files.readString(classpathFile).trim();
            if (classpath.isEmpty()) {
                throw new IllegalStateException("The Kafka broker's class path file is empty: " + classpathFile);
            }
            return classpath;
        } catch (IOException e) {
            throw new UncheckedIOException("Could not read the Kafka broker's class path " + classpathFile
                    + " (the build of module test-kafka-broker writes it)", e);
        }
    }

    /** Fails fast when another process, such as the broker of a run that did not stop, has the port. */
    private static void requireFree(int port, String listener) {
        try (ServerSocket socket = new ServerSocket(port, 1, InetAddress.getLoopbackAddress())) {
            socket.setReuseAddress(true);
        } catch (IOException e) {
            throw new IllegalStateException("Port " + port + " on 127.0.0.1, for the Kafka broker's " + listener
                    + " listener, is taken (a broker left running? ss -ltnp sport = " + port + ")", e);
        }
    }

    private static <T> T get(KafkaFuture<T> future, String what, Path log) {
        try {
            return future.get(CLIENT_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
        } catch (ExecutionException e) {
            throw new IllegalStateException("Could not " + what + ": " + e.getCause() + "; see " + log, e.getCause());
        } catch (TimeoutException e) {
            throw new IllegalStateException("Could not " + what + " in " + CLIENT_TIMEOUT + "; see " + log, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("Interrupted while waiting to " + what, e);
        }
    }
}
