package io.github.txinbox.it.harness;

import io.github.txinbox.it.app.TestDatabase;
import io.github.txinbox.it.crash.CrashHandler;
import io.github.txinbox.it.crash.CrashListener;
import io.github.txinbox.it.messaging.Orders;
import io.github.txinbox.it.portable.DecisionLog;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.activemq.artemis.api.core.SimpleString;
import org.apache.activemq.artemis.core.server.Queue;
import org.jboss.shrinkwrap.api.spec.WebArchive;

/**
 * The crash application of the Payara Micro crash tests ({@link io.github.txinbox.it.crash}, on the test broker's
 * queue {@code crash}) and what they count of it: its WAR, a start of it on a Payara Micro by hand (Arquillian cannot
 * kill its server) whose transaction log lives in a directory of the test's, kept across restarts while the rest of
 * the server's directory is new on each start, as in a container whose only volume is the transaction log, with the
 * server's own datasource ({@link PayaraMicro#serverDataSource}: XA, or a plain one, the one one-phase resource of
 * each transaction), and the wait for a crash point.
 */
public final class CrashApplication {

    /** How long a start may take. */
    public static final Duration BOOT = Duration.ofMinutes(3);

    private CrashApplication() {
    }

    private static Path work(String name) {
        return Path.of(System.getProperty("txinbox.it.workDir"), "crash", name);
    }

    /**
     * Exports the crash application: the test class, the crash package, the order handling and the decision log.
     *
     * @param testClass the test class
     * @return the exported WAR
     */
    public static Path exportWar(Class<?> testClass) throws IOException {
        WebArchive archive = Deployments.withPersistenceXml(Deployments.war(testClass, Orders.class, DecisionLog.class)
                .addPackage(CrashListener.class.getPackage()), "crash-persistence.xml");
        return Deployments.export(archive);
    }

    /**
     * Empties a test's server directory and creates its transaction log directory.
     *
     * @param name the test's directory name
     */
    public static void freshDirectory(String name) throws IOException {
        Directories.delete(work(name));
        Files.createDirectories(work(name).resolve("tx-log"));
    }

    /**
     * Starts Payara Micro with the crash application and waits until it has deployed it.
     *
     * @param war  the exported WAR
     * @param name the test's directory name (see {@link #freshDirectory})
     * @param xa   an XA datasource, or a plain one
     * @return the running server
     */
    public static StandaloneServer start(Path war, String name, boolean xa) throws Exception {
        return start(war, name, xa, System.getProperty("txinbox.it.artemis.port"), List.of(), List.of());
    }

    /**
     * Starts Payara Micro as {@link #start(Path, String, boolean)} does, connected to another broker than the
     * session's, with further pre-boot commands and Payara Micro options.
     *
     * @param war             the exported WAR
     * @param name            the test's directory name (see {@link #freshDirectory})
     * @param xa              an XA datasource, or a plain one
     * @param brokerPort      the port of the broker on 127.0.0.1
     * @param prebootCommands further pre-boot commands, run after the shared ones and the transaction service's
     * @param microOptions    further Payara Micro options
     * @return the running server
     */
    public static StandaloneServer start(Path war, String name, boolean xa, String brokerPort,
            List<String> prebootCommands, List<String> microOptions) throws Exception {
        return start(war, name, xa, brokerPort, System.getProperty("inbox.db.url"), prebootCommands, microOptions);
    }

    /**
     * Starts Payara Micro as {@link #start(Path, String, boolean, String, List, List)} does, with its JDBC resource
     * and the deployment's {@code inbox.db.url} on another PostgreSQL database (same user and password) than the
     * session's.
     *
     * @param war             the exported WAR
     * @param name            the test's directory name (see {@link #freshDirectory})
     * @param xa              an XA datasource, or a plain one
     * @param brokerPort      the port of the broker on 127.0.0.1
     * @param databaseUrl     the JDBC URL of the database
     * @param prebootCommands further pre-boot commands, run after the shared ones and the transaction service's
     * @param microOptions    further Payara Micro options
     * @return the running server
     */
    public static StandaloneServer start(Path war, String name, boolean xa, String brokerPort, String databaseUrl,
            List<String> prebootCommands, List<String> microOptions) throws Exception {
        List<String> options = new ArrayList<>(PayaraMicro.serverDataSource(work(name), xa, databaseUrl,
                prebootCommands));
        options.addAll(microOptions);
        return PayaraMicro.start(war, BOOT, options, brokerPort, databaseUrl);
    }

    /**
     * Starts the server, sends one order of the queue {@code crash} that stops it where its behaviour says, waits
     * until it does, and kills the server with SIGKILL.
     *
     * @param war       the exported WAR
     * @param name      the test's directory name (see {@link #freshDirectory})
     * @param xa        an XA datasource, or a plain one
     * @param orderId   the order
     * @param behaviour where the crash application stops ({@code hang}, {@code hang-in-prepare}, ...)
     * @return the message's JMSMessageID
     */
    public static String sendAndKill(Path war, String name, boolean xa, String orderId, String behaviour)
            throws Exception {
        try (StandaloneServer server = start(war, name, xa)) {
            String messageId = Broker.send("crash", Map.of(Orders.ORDER_ID, orderId, Orders.BEHAVIOUR, behaviour));
            awaitCrashPoint(orderId);
            server.kill();
            return messageId;
        }
    }

    /**
     * Waits until the server has reached the crash point of an order ({@code CrashPoint.hangOnce}).
     *
     * @param orderId the order
     */
    public static void awaitCrashPoint(String orderId) {
        Await.until(Duration.ofSeconds(60), "the server to reach the crash point", () -> TestDatabase.queryLong(
                "SELECT count(*) FROM " + TestDatabase.SCHEMA + ".handler_stall WHERE order_id = ?", orderId) == 1);
    }

    /**
     * Releases an order held at its crash point ({@code CrashPoint.holdOnce}).
     *
     * @param orderId the order
     */
    public static void releaseCrashPoint(String orderId) {
        TestDatabase.update("UPDATE " + TestDatabase.SCHEMA + ".handler_stall SET released = true WHERE order_id = ?",
                orderId);
    }

    /**
     * Counts the invoices the crash application's handler committed for an order.
     *
     * @param orderId the order
     * @return the count
     */
    public static long invoices(String orderId) {
        return TestDatabase.invoices(CrashHandler.SCOPE, orderId);
    }

    /**
     * Counts the calls of the crash application's handler for an order, committed or not.
     *
     * @param orderId the order
     * @return the count
     */
    public static long handlerCalls(String orderId) {
        return TestDatabase.handlerCalls(CrashHandler.SCOPE, orderId);
    }

    /**
     * Counts the crash application's committed markers of a message.
     *
     * @param messageId the message's JMSMessageID
     * @return 0 or 1
     */
    public static long markers(String messageId) {
        return TestDatabase.markers(TestDatabase.INBOX, CrashHandler.SCOPE, messageId);
    }

    /**
     * Returns the queue the crash application consumes.
     *
     * @return the queue {@code crash} of the test broker
     */
    public static Queue crashQueue() {
        return ArtemisSession.server().locateQueue(SimpleString.of("crash"));
    }
}
