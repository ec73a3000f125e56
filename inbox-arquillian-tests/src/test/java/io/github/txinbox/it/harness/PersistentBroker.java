package io.github.txinbox.it.harness;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import java.util.function.Supplier;
import org.apache.activemq.artemis.api.core.SimpleString;
import org.apache.activemq.artemis.api.core.management.ActiveMQServerControl;
import org.apache.activemq.artemis.core.config.Configuration;
import org.apache.activemq.artemis.core.server.ActiveMQServer;
import org.apache.activemq.artemis.core.server.JournalType;
import org.apache.activemq.artemis.core.server.Queue;
import org.apache.activemq.artemis.core.server.embedded.EmbeddedActiveMQ;
import org.apache.activemq.artemis.core.settings.impl.AddressSettings;

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
        return start(directory, settings -> { });
    }

    /**
     * Starts a broker as {@link #start(Path)} does, whose redelivery backs off: the first redelivery of a message
     * waits the given delay, each further one twice as long as the one before, up to the given longest delay.
     *
     * @param directory     the journal's directory, emptied first
     * @param firstDelay    the delay before the first redelivery
     * @param longestDelay  the longest delay
     * @return the running broker
     */
    public static PersistentBroker start(Path directory, Duration firstDelay, Duration longestDelay) {
        return start(directory, settings -> settings
                .setRedeliveryDelay(firstDelay.toMillis())
                .setRedeliveryMultiplier(2.0)
                .setMaxRedeliveryDelay(longestDelay.toMillis()));
    }

    private static PersistentBroker start(Path directory, Consumer<AddressSettings> redelivery) {
        Directories.delete(directory);
        int port = ArtemisSession.freePort();
        Configuration configuration = ArtemisSession.configuration(port);
        // Artemis's default number of attempts rather than the session broker's 3: a restart costs an in-flight
        // message an attempt or two on top of any failure of its own.
        configuration.getAddressSettings().values()
                .forEach(settings -> redelivery.accept(settings.setMaxDeliveryAttempts(MAX_DELIVERY_ATTEMPTS)));
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

    /**
     * Waits until a test's messages are all accounted for and the queue is empty, rolling back, as docs/guarantees.md
     * tells an operator to, each transaction branch that stays prepared in the broker longer than the given time
     * (whatever became of the database's side: the inbox recognises the redelivery when it had committed).
     *
     * @param queue      the queue
     * @param accounted  whether every message of the test is accounted for (processed or dead-lettered)
     * @param inDoubt    how long a branch stays prepared before it is rolled back
     * @param timeout    how long to wait in all
     * @param state      what to report, besides the broker's figures, when the wait times out
     * @return how many branches were rolled back
     */
    public int settle(String queue, BooleanSupplier accounted, Duration inDoubt, Duration timeout,
            Supplier<String> state) throws Exception {
        return await(queue, accounted, inDoubt, timeout, state);
    }

    /**
     * Waits until a test's messages are all accounted for and the queue is empty, by themselves: nothing is rolled
     * back by hand, and a transaction branch prepared in the broker fails the wait at once (in the set-up that
     * acknowledges after the commit the broker's deliveries are in no transaction).
     *
     * @param queue     the queue
     * @param accounted whether every message of the test is accounted for (processed or dead-lettered)
     * @param timeout   how long to wait
     * @param state     what to report, besides the broker's figures, when the wait fails
     */
    public void awaitDrainedByItself(String queue, BooleanSupplier accounted, Duration timeout,
            Supplier<String> state) throws Exception {
        await(queue, accounted, null, timeout, state);
    }

    /** Waits as {@link #settle} does; with no {@code inDoubt}, any prepared branch fails the wait. */
    private int await(String queue, BooleanSupplier accounted, Duration inDoubt, Duration timeout,
            Supplier<String> state) throws Exception {
        long deadline = System.nanoTime() + timeout.toNanos();
        Map<String, Long> firstSeen = new HashMap<>();
        int rolledBack = 0;
        while (true) {
            ActiveMQServerControl control = server().getActiveMQServerControl();
            Queue messages = server().locateQueue(SimpleString.of(queue));
            String[] prepared = control.listPreparedTransactions();
            if (accounted.getAsBoolean() && prepared.length == 0 && messages.getMessageCount() == 0
                    && messages.getScheduledCount() == 0) {
                return rolledBack;
            }
            long now = System.nanoTime();
            if (inDoubt == null && prepared.length > 0) {
                throw new AssertionError("A transaction branch is prepared in the broker: " + String.join("; ",
                        prepared) + "; " + state.get());
            }
            for (String entry : prepared) {
                long since = firstSeen.computeIfAbsent(entry, e -> now);
                if (now - since > inDoubt.toNanos()) {
                    if (!Broker.rollBackPrepared(control, entry)) {
                        throw new AssertionError("The broker did not roll back " + entry);
                    }
                    rolledBack++;
                }
            }
            if (now > deadline) {
                throw new AssertionError("Not settled within " + timeout + ": " + messages.getMessageCount()
                        + " messages in the queue " + queue + ", " + messages.getScheduledCount() + " scheduled, "
                        + deadLetters() + " dead-lettered, " + rolledBack + " branches rolled back by hand, "
                        + "prepared in the broker: " + String.join("; ", prepared) + "; " + state.get());
            }
            Thread.sleep(500);
        }
    }

    /**
     * Counts the messages in the dead-letter queue.
     *
     * @return the count
     */
    public long deadLetters() {
        return server().locateQueue(SimpleString.of(ArtemisSession.DEAD_LETTER_QUEUE)).getMessageCount();
    }

    @Override
    public synchronized void close() {
        stop();
    }
}
