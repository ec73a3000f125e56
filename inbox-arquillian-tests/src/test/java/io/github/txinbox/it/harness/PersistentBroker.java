package io.github.txinbox.it.harness;

import java.nio.file.Files;
import java.nio.file.Path;
import org.apache.activemq.artemis.core.config.Configuration;
import org.apache.activemq.artemis.core.server.ActiveMQServer;
import org.apache.activemq.artemis.core.server.JournalType;
import org.apache.activemq.artemis.core.server.embedded.EmbeddedActiveMQ;

/**
 * A second embedded Artemis broker, with the session broker's queues and redelivery settings but a persistent
 * journal, for the test that restarts a broker under a running server: messages not yet acknowledged, and
 * transaction branches prepared, survive the restart. Listens on 127.0.0.1; stopped by {@link #close}.
 */
public final class PersistentBroker implements AutoCloseable {

    /** Deliveries of a message before it is dead-lettered: Artemis's default. */
    public static final int MAX_DELIVERY_ATTEMPTS = 10;

    private final Configuration configuration;
    private final int port;
    private EmbeddedActiveMQ broker;

    private PersistentBroker(Configuration configuration, int port) {
        this.configuration = configuration;
        this.port = port;
        this.broker = ArtemisSession.start(configuration);
    }

    /**
     * Starts a broker on a free port with a new journal in a directory.
     *
     * @param directory the journal's directory, emptied first
     * @return the running broker
     */
    public static PersistentBroker start(Path directory) {
        Directories.delete(directory);
        int port = ArtemisSession.freePort();
        Configuration configuration = ArtemisSession.configuration(port);
        // Artemis's default number of attempts rather than the session broker's 3: a restart costs an in-flight
        // message an attempt or two on top of any failure of its own.
        configuration.getAddressSettings().values()
                .forEach(settings -> settings.setMaxDeliveryAttempts(MAX_DELIVERY_ATTEMPTS));
        configuration
                .setPersistenceEnabled(true)
                .setJournalType(JournalType.NIO)
                .setJournalDirectory(directory.resolve("journal").toString())
                .setBindingsDirectory(directory.resolve("bindings").toString())
                .setLargeMessagesDirectory(directory.resolve("large-messages").toString())
                .setPagingDirectory(directory.resolve("paging").toString());
        return new PersistentBroker(configuration, port);
    }

    /**
     * Returns the port the broker listens on, on 127.0.0.1.
     *
     * @return the port
     */
    public int port() {
        return port;
    }

    /**
     * Returns the URL clients connect to.
     *
     * @return the broker's URL
     */
    public String url() {
        return "tcp://127.0.0.1:" + port;
    }

    /**
     * Returns the running broker.
     *
     * @return the broker
     */
    public synchronized ActiveMQServer server() {
        return broker.getActiveMQServer();
    }

    /**
     * Stops the broker and starts it again on the same port and journal: clients lose their connections, and what
     * the journal holds (messages, prepared transaction branches) is there again.
     */
    public synchronized void restart() {
        stop();
        broker = ArtemisSession.start(configuration);
    }

    private void stop() {
        try {
            broker.stop();
        } catch (Exception e) {
            throw new IllegalStateException("Could not stop the persistent Artemis broker on " + url(), e);
        }
    }

    @Override
    public synchronized void close() {
        stop();
    }
}
