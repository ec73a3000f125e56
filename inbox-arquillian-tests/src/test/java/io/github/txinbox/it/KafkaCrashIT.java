package io.github.txinbox.it;

import static io.github.txinbox.it.app.TestDatabase.INBOX;
import static io.github.txinbox.it.app.TestDatabase.handlerCalls;
import static io.github.txinbox.it.app.TestDatabase.invoices;
import static io.github.txinbox.it.app.TestDatabase.markers;
import static io.github.txinbox.it.app.TestDatabase.newOrderId;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.github.txinbox.it.app.TestDatabase;
import io.github.txinbox.it.harness.Await;
import io.github.txinbox.it.harness.CrashApplication;
import io.github.txinbox.it.harness.Deployments;
import io.github.txinbox.it.harness.Directories;
import io.github.txinbox.it.harness.KafkaBroker;
import io.github.txinbox.it.harness.StandaloneServer;
import io.github.txinbox.it.kafka.AfterCommitStall;
import io.github.txinbox.it.kafka.KafkaOrders;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * A Kafka consumer killed after the database commit and before the offset commit: the record comes again when the
 * consumer restarts, and the inbox recognises it. The server is started by hand so that the test can kill it with
 * SIGKILL. The kill falls between the two commits by construction: an observer of the inbox's events
 * ({@link AfterCommitStall}), which the inbox notifies on the handler's thread once the transaction has committed and
 * before the handler returns to the consumer, blocks there for the test's order, so the consumer never acknowledges
 * the record; the test checks that the offset is still uncommitted when it kills. Every delivery of the record is
 * accounted for: processed once, then a duplicate.
 */
@Tag("kafka")
class KafkaCrashIT {

    private static final Duration BOOT = Duration.ofMinutes(3);
    private static final Duration WAIT = Duration.ofMinutes(2);
    private static final String SCOPE = KafkaOrders.SCOPE;
    private static final String TOPIC = "kafka-crash";
    private static final String GROUP = "txinbox-it-kafka-crash";
    private static final String DIRECTORY = "kafka-crash";

    @Test
    void killedBetweenTheDatabaseCommitAndTheOffsetCommitTheRecordComesAgainAsADuplicate() throws Exception {
        KafkaBroker broker = KafkaBroker.current();
        broker.createTopicIfAbsent(TOPIC, 1);
        broker.createTopicIfAbsent(TOPIC + "-dead", 1);
        WebArchive war = Deployments.withKafkaConsumer(Deployments.war(KafkaCrashIT.class), TOPIC, GROUP, 1,
                TOPIC + "-dead",
                // The killed consumer leaves the group when its session times out, and the restarted one gets the
                // partition only then: the broker's shortest session, not the default 45 s.
                Map.of("session.timeout.ms", "6000", "heartbeat.interval.ms", "2000"));
        Directories.delete(Path.of(System.getProperty("txinbox.it.workDir"), "killed", DIRECTORY));
        String orderId = AfterCommitStall.HANG + newOrderId();

        try (StandaloneServer server = StandaloneServer.start(DIRECTORY, war, BOOT)) {
            broker.send(List.of(KafkaOrders.order(TOPIC, 0, orderId, orderId, null)));
            CrashApplication.awaitCrashPoint(orderId);
            assertEquals(1, markers(INBOX, SCOPE, orderId), "the database has committed");
            assertEquals(Map.of(0, 0L), broker.committed(GROUP, TOPIC), "the offset is not committed");
            server.kill();
        }
        assertEquals(Map.of(0, 0L), broker.committed(GROUP, TOPIC), "the kill fell before the offset commit");
        assertEquals(1, decisions(orderId, "PROCESSED"));

        try (StandaloneServer server = StandaloneServer.start(DIRECTORY, war, BOOT)) {
            Await.until(WAIT, "the record to come again", () -> decisions(orderId, "DUPLICATE") == 1);
            Await.until(WAIT, "its offset committed", () -> broker.committed(GROUP, TOPIC).equals(Map.of(0, 1L)));
        }
        assertEquals(1, decisions(orderId, "PROCESSED"));
        assertEquals(1, decisions(orderId, "DUPLICATE"));
        assertEquals(1, invoices(SCOPE, orderId), "one effect");
        assertEquals(1, handlerCalls(SCOPE, orderId), "the handler ran once");
        assertEquals(0, TestDatabase.preparedTransactions(), "PostgreSQL holds no prepared transaction");
    }

    private static long decisions(String orderId, String outcome) {
        return TestDatabase.decisions(SCOPE, orderId, outcome);
    }
}
