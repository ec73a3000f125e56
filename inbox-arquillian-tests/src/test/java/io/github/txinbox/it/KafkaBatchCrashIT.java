package io.github.txinbox.it;

import static io.github.txinbox.it.app.TestDatabase.INBOX;
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
 * A consumer of batches ({@link KafkaBatchIT}'s) killed with SIGKILL during a batch, twice: while the batch's handler
 * runs, before its transaction commits, and after the commit, before the batch's offsets are. The server is started by
 * hand so that the test can kill it. Either way the poll's records come again when the consumer restarts, and each
 * order is invoiced once: the first kill leaves no marker of any record of the batch, so all are processed; the
 * second leaves every marker, so all are duplicates.
 */
@Tag("kafka-batch")
class KafkaBatchCrashIT {

    private static final Duration BOOT = Duration.ofMinutes(3);
    private static final Duration WAIT = Duration.ofMinutes(2);
    private static final String SCOPE = KafkaOrders.SCOPE;
    private static final String TOPIC = "kafka-batch-crash";
    private static final String GROUP = "txinbox-it-kafka-batch-crash";
    private static final String DIRECTORY = "kafka-batch-crash";

    @Test
    void killedDuringABatchBeforeOrAfterItsCommitEveryRecordIsInvoicedOnce() throws Exception {
        KafkaBroker broker = KafkaBroker.current();
        broker.createTopicIfAbsent(TOPIC, 1);
        broker.createTopicIfAbsent(TOPIC + "-nacked", 1);
        broker.createTopicIfAbsent(io.github.txinbox.it.kafka.batch.KafkaBatchOrdersConsumer.DEAD_LETTERS, 1);
        WebArchive war = KafkaBatchIT.batchChannel(Deployments.war(KafkaBatchCrashIT.class), TOPIC, GROUP,
                TOPIC + "-nacked",
                // The killed consumer leaves the group when its session times out: the broker's shortest session.
                Map.of("session.timeout.ms", "6000", "heartbeat.interval.ms", "2000"));
        Directories.delete(Path.of(System.getProperty("txinbox.it.workDir"), "killed", DIRECTORY));
        List<String> before = List.of(newOrderId(), newOrderId(), newOrderId());
        List<String> after = List.of(newOrderId(), AfterCommitStall.HANG + newOrderId(), newOrderId());

        try (StandaloneServer server = StandaloneServer.start(DIRECTORY, war, BOOT)) {
            broker.send(List.of(order(before.get(0), null), order(before.get(1), "hang-in-handler"),
                    order(before.get(2), null)));
            CrashApplication.awaitCrashPoint(before.get(1));
            assertEquals(List.of(3L), KafkaBatchIT.polls(before.get(1)), "the three records came in one poll");
            assertEquals(1, TestDatabase.handlerCalls(SCOPE, before.get(0)), "the batch ran its first record");
            server.kill();
        }
        for (String order : before) {
            assertEquals(0, markers(INBOX, SCOPE, order), order + ": the batch did not commit");
            assertEquals(0, invoices(SCOPE, order), order);
        }
        assertEquals(Map.of(0, 0L), broker.committed(GROUP, TOPIC), "nothing of the batch was acknowledged");

        try (StandaloneServer server = StandaloneServer.start(DIRECTORY, war, BOOT)) {
            Await.until(WAIT, "the batch invoiced after the restart",
                    () -> before.stream().allMatch(order -> invoices(SCOPE, order) == 1));
            Await.until(WAIT, "its offsets committed", () -> broker.committed(GROUP, TOPIC).equals(Map.of(0, 3L)));

            broker.send(after.stream().map(order -> order(order, null)).toList());
            CrashApplication.awaitCrashPoint(after.get(1));
            for (String order : after) {
                assertEquals(1, markers(INBOX, SCOPE, order), order + ": the batch committed");
            }
            assertEquals(Map.of(0, 3L), broker.committed(GROUP, TOPIC), "the second batch is not acknowledged");
            server.kill();
        }
        assertEquals(Map.of(0, 3L), broker.committed(GROUP, TOPIC), "the kill fell before the offset commit");

        try (StandaloneServer server = StandaloneServer.start(DIRECTORY, war, BOOT)) {
            Await.until(WAIT, "the second batch to come again, every record a duplicate",
                    () -> after.stream().allMatch(order -> decisions(order, "DUPLICATE") == 1));
            Await.until(WAIT, "its offsets committed", () -> broker.committed(GROUP, TOPIC).equals(Map.of(0, 6L)));
        }
        for (String order : before) {
            assertEquals(1, decisions(order, "PROCESSED"), order + ": processed after the restart");
            // The killed batch ran its first two records, not its last; the batch after the restart ran all three.
            assertEquals(before.indexOf(order) < 2 ? 2 : 1, TestDatabase.handlerCalls(SCOPE, order), order);
        }
        for (String order : List.of(before.get(0), before.get(1), before.get(2), after.get(0), after.get(1),
                after.get(2))) {
            assertEquals(1, invoices(SCOPE, order), order + ": one effect");
            assertEquals(1, markers(INBOX, SCOPE, order), order + ": one marker");
        }
        for (String order : after) {
            assertEquals(1, TestDatabase.handlerCalls(SCOPE, order), order + ": ran once");
        }
        assertEquals(0, TestDatabase.preparedTransactions(), "PostgreSQL holds no prepared transaction");
    }

    private static org.apache.kafka.clients.producer.ProducerRecord<String, String> order(String orderId,
            String behaviour) {
        return KafkaOrders.order(TOPIC, 0, orderId, orderId, behaviour);
    }

    private static long decisions(String orderId, String outcome) {
        return TestDatabase.decisions(SCOPE, orderId, outcome);
    }
}
