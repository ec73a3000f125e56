package io.github.txinbox.it.harness;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.util.List;
import java.util.logging.Logger;
import org.apache.activemq.artemis.api.core.QueueConfiguration;
import org.apache.activemq.artemis.api.core.RoutingType;
import org.apache.activemq.artemis.api.core.SimpleString;
import org.apache.activemq.artemis.core.config.Configuration;
import org.apache.activemq.artemis.core.config.impl.ConfigurationImpl;
import org.apache.activemq.artemis.core.server.ActiveMQServer;
import org.apache.activemq.artemis.core.server.embedded.EmbeddedActiveMQ;
import org.apache.activemq.artemis.core.settings.impl.AddressSettings;

/**
 * The embedded ActiveMQ Artemis broker on 127.0.0.1 of one test run (one failsafe JVM), for the server that uses the
 * test broker ({@link Server#usesTestBroker()}): {@link TestRun} starts it before the server's set-up and stops it
 * when the run ends (after the last Payara Micro has stopped). It publishes the broker's port as the system property
 * {@code txinbox.it.artemis.port} (Payara receives it and resolves it in the resource adapter's ra.xml).
 *
 * <p>Redelivery, as a broker in production would be set up: a failed delivery is retried after
 * {@value #REDELIVERY_DELAY_MS} ms ({@value #SLOW_REDELIVERY_DELAY_MS} ms on the queue {@code redelivery}, so that
 * tests can look at the state between two attempts), at most {@value #MAX_DELIVERY_ATTEMPTS} attempts, then the
 * message goes to the queue {@value #DEAD_LETTER_QUEUE}.
 */
public final class ArtemisSession {

    /** The queues of the test application. */
    public static final List<String> QUEUES = List.of("orders", "audit", "redelivery", "service", "crash", "ack", "timeout",
            "configured", "two-resources", "bench-inbox", "bench-plain", "price-inbox-ack", "price-inbox-local", "price-inbox-xa",
            "price-plain-xa");

    /** Where messages go after their last failed attempt. */
    public static final String DEAD_LETTER_QUEUE = "DLQ";

    /** Redelivery delay on most queues. */
    public static final long REDELIVERY_DELAY_MS = 300;

    /** Redelivery delay on the queue {@code redelivery}. */
    public static final long SLOW_REDELIVERY_DELAY_MS = 2_000;

    /** Deliveries of a message before it is dead-lettered. */
    public static final int MAX_DELIVERY_ATTEMPTS = 3;

    /** The sessions of the consumer of the queue {@code ack} ({@code maxSession} in servers/payara/ejb-jar.xml). */
    public static final int ACK_SESSIONS = 4;

    /**
     * Deliveries of a message of the queue {@code ack} before it is dead-lettered, sized as docs/servers.md says: the
     * attempts wanted ({@value #MAX_DELIVERY_ATTEMPTS}) and one per session of the consumer, for one crash of its
     * server. When a server dies, Artemis may count a delivery for each of its sessions that had the message, also
     * one that had it only in its buffer: with {@value #MAX_DELIVERY_ATTEMPTS} attempts and the default consumer
     * window, a message whose handler ran once before a kill was dead-lettered without a second call. The consumer
     * now runs with {@code consumerWindowSize} 0 (servers/payara/ejb-jar.xml), which leaves one count for the kill;
     * the margin stays, for a broker restart under the consumers.
     */
    public static final int ACK_DELIVERY_ATTEMPTS = MAX_DELIVERY_ATTEMPTS + ACK_SESSIONS;

    private static final Logger LOG = Logger.getLogger(ArtemisSession.class.getName());

    private static volatile EmbeddedActiveMQ broker;
    private static volatile int port;

    private ArtemisSession() {
    }

    /** Starts the run's broker on a free port. */
    static void open() {
        port = freePort();
        broker = start(configuration(port).setPersistenceEnabled(false));
        System.setProperty("txinbox.it.artemis.port", Integer.toString(port));
        LOG.info(() -> "Started embedded Artemis on 127.0.0.1:" + port);
    }

    /** Stops the run's broker, if it runs. */
    static void close() {
        EmbeddedActiveMQ running = broker;
        broker = null;
        if (running != null) {
            try {
                running.stop();
            } catch (Exception e) {
                throw new IllegalStateException("Could not stop the embedded Artemis broker", e);
            }
        }
    }

    /**
     * Returns the configuration of the test brokers: the name, an acceptor on 127.0.0.1, the redelivery settings and
     * the queues described above; no security, no JMX.
     *
     * @param port the port to listen on
     * @return the configuration, to which the caller adds persistence settings
     */
    static Configuration configuration(int port) {
        Configuration configuration = new ConfigurationImpl()
                .setName("txinbox-it")
                .setSecurityEnabled(false)
                .setJMXManagementEnabled(false);
        try {
            configuration.addAcceptorConfiguration("netty", "tcp://127.0.0.1:" + port);
        } catch (Exception e) {
            throw new IllegalStateException("Bad acceptor for 127.0.0.1:" + port, e);
        }
        configuration.addAddressSetting("#", new AddressSettings()
                .setRedeliveryDelay(REDELIVERY_DELAY_MS)
                .setMaxDeliveryAttempts(MAX_DELIVERY_ATTEMPTS)
                .setDeadLetterAddress(SimpleString.of(DEAD_LETTER_QUEUE)));
        configuration.addAddressSetting("redelivery", new AddressSettings()
                .setRedeliveryDelay(SLOW_REDELIVERY_DELAY_MS)
                .setMaxDeliveryAttempts(MAX_DELIVERY_ATTEMPTS)
                .setDeadLetterAddress(SimpleString.of(DEAD_LETTER_QUEUE)));
        configuration.addAddressSetting("ack", new AddressSettings()
                .setRedeliveryDelay(REDELIVERY_DELAY_MS)
                .setMaxDeliveryAttempts(ACK_DELIVERY_ATTEMPTS)
                .setDeadLetterAddress(SimpleString.of(DEAD_LETTER_QUEUE)));
        for (String queue : QUEUES) {
            configuration.addQueueConfiguration(anycast(queue));
        }
        configuration.addQueueConfiguration(anycast(DEAD_LETTER_QUEUE));
        return configuration;
    }

    static EmbeddedActiveMQ start(Configuration configuration) {
        EmbeddedActiveMQ started = new EmbeddedActiveMQ().setConfiguration(configuration);
        try {
            started.start();
        } catch (Exception e) {
            throw new IllegalStateException("Could not start the embedded Artemis broker "
                    + configuration.getAcceptorConfigurations(), e);
        }
        return started;
    }

    /**
     * Returns the running broker, for the client-side tests that look into its queues.
     *
     * @return the broker
     */
    public static ActiveMQServer server() {
        EmbeddedActiveMQ running = broker;
        if (running == null) {
            throw new IllegalStateException("The embedded Artemis broker is not running");
        }
        return running.getActiveMQServer();
    }

    /**
     * Returns the URL clients connect to.
     *
     * @return the broker's URL
     */
    public static String url() {
        return "tcp://127.0.0.1:" + port;
    }

    private static QueueConfiguration anycast(String name) {
        return QueueConfiguration.of(name).setAddress(name).setRoutingType(RoutingType.ANYCAST);
    }

    static int freePort() {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException("No free port on 127.0.0.1", e);
        }
    }
}
