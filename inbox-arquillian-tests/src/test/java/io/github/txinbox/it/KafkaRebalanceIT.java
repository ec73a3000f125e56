package io.github.txinbox.it;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.github.txinbox.it.app.TestDatabase;
import io.github.txinbox.it.harness.Await;
import io.github.txinbox.it.harness.CrashApplication;
import io.github.txinbox.it.harness.Deployments;
import io.github.txinbox.it.harness.KafkaBroker;
import io.github.txinbox.it.kafka.AfterCommitStall;
import io.github.txinbox.it.kafka.KafkaOrders;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.jboss.arquillian.container.test.api.Deployer;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.container.test.api.RunAsClient;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.arquillian.test.api.ArquillianResource;
import org.jboss.shrinkwrap.api.ShrinkWrap;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Two consumers in one group, and the rebalances between them: a second application joins the group of the first
 * while records stream in, then the first leaves. Each order is sent twice, to two partitions, so that the copies are
 * handled by whichever consumer holds each partition. Every order ends with one invoice and one {@code PROCESSED}
 * decision, every copy is decided, every offset is committed, and no record is dead-lettered.
 */
@Tag("kafka")
@RunAsClient
@ExtendWith(ArquillianExtension.class)
class KafkaRebalanceIT {

    private static final Duration WAIT = Duration.ofMinutes(2);
    private static final String TOPIC = "kafka-rebalance";
    private static final String GROUP = "txinbox-it-kafka-rebalance";
    private static final int PARTITIONS = 4;
    /** Copies of the channel in each application: two applications hold two members each (one on Open Liberty). */
    private static final int CONCURRENCY = 2;

    /** The members of the group each application brings. */
    private static final int COPIES = Deployments.kafkaCopies(CONCURRENCY);
    private static final int ORDERS_PER_PART = 150;

    @ArquillianResource
    Deployer deployer;

    @Deployment(name = "first", managed = false)
    static WebArchive first() {
        return consumer("KafkaRebalanceFirst");
    }

    @Deployment(name = "second", managed = false)
    static WebArchive second() {
        return consumer("KafkaRebalanceSecond");
    }

    private static WebArchive consumer(String name) {
        KafkaBroker broker = KafkaBroker.current();
        broker.createTopicIfAbsent(TOPIC, PARTITIONS);
        broker.createTopicIfAbsent(TOPIC + "-dead", 1);
        return ShrinkWrap.create(WebArchive.class, name + ".war").merge(Deployments.withKafkaConsumer(
                Deployments.war(KafkaRebalanceIT.class), TOPIC, GROUP, CONCURRENCY, TOPIC + "-dead", Map.of()));
    }

    /** The one-partition topic whose partition moves from {@code holder} to {@code taker}. */
    private static final String MOVED = "kafka-moved";

    private static final String MOVED_GROUP = "txinbox-it-kafka-moved";

    /**
     * The application that holds the partition first. Its consumer's client id sorts after the taker's: the group's
     * range assignor gives the one partition to the member whose id sorts first, so the taker gets it when it joins.
     */
    @Deployment(name = "holder", managed = false)
    static WebArchive holder() {
        return movedConsumer("KafkaMovedHolder", "b-holder");
    }

    /** The application that takes the partition when it joins the group. */
    @Deployment(name = "taker", managed = false)
    static WebArchive taker() {
        return movedConsumer("KafkaMovedTaker", "a-taker");
    }

    private static WebArchive movedConsumer(String name, String clientId) {
        KafkaBroker broker = KafkaBroker.current();
        broker.createTopicIfAbsent(MOVED, 1);
        broker.createTopicIfAbsent(MOVED + "-dead", 1);
        return ShrinkWrap.create(WebArchive.class, name + ".war").merge(Deployments.withKafkaConsumer(
                Deployments.war(KafkaRebalanceIT.class), MOVED, MOVED_GROUP, 1, MOVED + "-dead",
                // A consumer that does not poll for 10 s leaves the group (Open Liberty's stops polling while its
                // one thread is held): the partition then moves either way, and sooner than after 5 minutes.
                Map.of("client.id", clientId, "max.poll.interval.ms", "10000")));
    }

    /** Sends a part of the stream: each order twice, to partitions p and p + 2. Returns the orders. */
    private static List<String> sendPart(String batch, int part) {
        List<String> orders = new ArrayList<>();
        List<ProducerRecord<String, String>> records = new ArrayList<>();
        for (int i = 0; i < ORDERS_PER_PART; i++) {
            String orderId = "order-" + batch + "-" + part + "-" + i;
            orders.add(orderId);
            records.add(KafkaOrders.order(TOPIC, i % PARTITIONS, orderId, orderId, null));
            records.add(KafkaOrders.order(TOPIC, (i + 2) % PARTITIONS, orderId, orderId, null));
        }
        KafkaBroker.current().send(records);
        return orders;
    }

    private static long members() {
        return KafkaBroker.current().members(GROUP);
    }

    private static long batchCount(String sql, String batch) {
        return TestDatabase.queryLong(sql, KafkaOrders.SCOPE, "order-" + batch + "-%");
    }

    /** The batch's decisions that meet the condition on their outcome ("true" for all). */
    private static long decisions(String batch, String outcome) {
        return batchCount("SELECT count(*) FROM " + TestDatabase.SCHEMA + ".inbox_decision WHERE scope = ? "
                + "AND message_id LIKE ? AND " + outcome, batch);
    }

    /** The batch's decisions other than processed and duplicate: outcome, message id and reason of each. */
    private static List<String> otherDecisions(String batch) {
        List<String> found = new ArrayList<>();
        try (Connection connection = TestDatabase.connect();
                PreparedStatement statement = TestDatabase.prepare(connection, "SELECT outcome, message_id, reason "
                        + "FROM " + TestDatabase.SCHEMA + ".inbox_decision WHERE scope = ? AND message_id LIKE ? "
                        + "AND outcome NOT IN ('PROCESSED', 'DUPLICATE')", KafkaOrders.SCOPE, "order-" + batch + "-%");
                ResultSet result = statement.executeQuery()) {
            while (result.next()) {
                found.add(result.getString(1) + " " + result.getString(2) + ": " + result.getString(3));
            }
        } catch (SQLException e) {
            throw new IllegalStateException("Could not read the decisions of " + batch, e);
        }
        return found;
    }

    /**
     * A record handled and committed in the database by one application, whose offset that application has not
     * committed yet (its thread is held after the commit, {@link AfterCommitStall}), when its partition moves to
     * another application that joins the group: the other application reads the record again, and the inbox
     * recognises it. The first application's acknowledgement, once released, commits nothing: the partition is no
     * longer its.
     */
    @Test
    void aRecordCommittedInTheDatabaseButNotInKafkaComesAgainToTheConsumerThatTakesItsPartition() {
        String orderId = AfterCommitStall.HOLD + TestDatabase.newOrderId();
        KafkaBroker broker = KafkaBroker.current();
        deployer.deploy("holder");
        try {
            Await.until(WAIT, "the holder in the group", () -> broker.members(MOVED_GROUP) == 1);
            broker.send(List.of(KafkaOrders.order(MOVED, 0, orderId, orderId, null)));
            CrashApplication.awaitCrashPoint(orderId);
            assertEquals(1, TestDatabase.markers(TestDatabase.INBOX, KafkaOrders.SCOPE, orderId),
                    "the database has committed");
            assertEquals(Map.of(0, 0L), broker.committed(MOVED_GROUP, MOVED), "the offset is not committed");
            deployer.deploy("taker");
            try {
                Await.until(WAIT, "the taker to read " + orderId + " again",
                        () -> TestDatabase.decisions(KafkaOrders.SCOPE, orderId, "DUPLICATE") == 1);
            } finally {
                CrashApplication.releaseCrashPoint(orderId);
            }
            Await.until(WAIT, "the offset of " + orderId + " committed",
                    () -> broker.committed(MOVED_GROUP, MOVED).equals(Map.of(0, 1L)));
        } finally {
            try {
                deployer.undeploy("holder");
            } finally {
                deployer.undeploy("taker");
            }
        }
        assertEquals(1, TestDatabase.decisions(KafkaOrders.SCOPE, orderId, "PROCESSED"));
        assertEquals(1, TestDatabase.decisions(KafkaOrders.SCOPE, orderId, "DUPLICATE"));
        assertEquals(1, TestDatabase.invoices(KafkaOrders.SCOPE, orderId), "one effect");
        assertEquals(1, TestDatabase.handlerCalls(KafkaOrders.SCOPE, orderId), "the handler ran once");
        assertEquals(Map.of(0, 0L), broker.ends(MOVED + "-dead"), "nothing dead-lettered");
    }

    @Test
    void aSecondConsumerJoinsTheGroupAndTheFirstLeavesWhileRecordsStreamIn() {
        String batch = UUID.randomUUID().toString().substring(0, 8);
        List<String> orders = new ArrayList<>();
        deployer.deploy("first");
        try {
            Await.until(WAIT, "the first application's consumers in the group", () -> members() == COPIES);
            orders.addAll(sendPart(batch, 1));
            deployer.deploy("second");
            try {
                Await.until(WAIT, "both applications' consumers in the group",
                        () -> members() == 2 * COPIES);
                orders.addAll(sendPart(batch, 2));
            } finally {
                deployer.undeploy("first");
            }
            Await.until(WAIT, "the second application's consumers alone in the group",
                    () -> members() == COPIES);
            orders.addAll(sendPart(batch, 3));
            Await.until(WAIT, "a decision on every copy",
                    () -> decisions(batch, "outcome IN ('PROCESSED', 'DUPLICATE')") >= 2L * orders.size());
            Await.until(WAIT, "the group to commit every record",
                    () -> KafkaBroker.current().committed(GROUP, TOPIC).equals(KafkaBroker.current().ends(TOPIC)));
        } finally {
            deployer.undeploy("second");
        }

        String invoices = "SELECT count(*) FROM " + TestDatabase.SCHEMA + ".invoice WHERE consumer = ? "
                + "AND orderid LIKE ?";
        String invoiced = "SELECT count(DISTINCT orderid) FROM " + TestDatabase.SCHEMA + ".invoice WHERE consumer = ? "
                + "AND orderid LIKE ?";
        // For the record of the leg: decisions beyond the copies sent are records the rebalances brought again.
        System.out.println("[kafka-rebalance] " + orders.size() + " orders, " + 2 * orders.size() + " records, "
                + decisions(batch, "true") + " decisions; others than processed and duplicate: "
                + otherDecisions(batch));
        assertEquals(orders.size(), batchCount(invoiced, batch), "every order invoiced");
        assertEquals(orders.size(), batchCount(invoices, batch), "no order invoiced twice");
        assertEquals(orders.size(), decisions(batch, "outcome = 'PROCESSED'"), "one PROCESSED decision per order");
        // A record whose handler failed because its application was stopping is nacked on Open Liberty, and comes
        // again: such a failure is allowed, a record dead-lettered is not.
        assertEquals(Map.of(0, 0L), KafkaBroker.current().ends(TOPIC + "-dead"),
                "no record dead-lettered; the decisions other than processed and duplicate: " + otherDecisions(batch));
        assertEquals(0, TestDatabase.preparedTransactions(), "PostgreSQL holds no prepared transaction");
    }
}
