package io.github.txinbox.bench;

import io.github.txinbox.bench.throughput.Invoicing;
import io.github.txinbox.bench.xaprice.AckAfterCommitInvoicing;
import io.github.txinbox.bench.xaprice.InboxAckAfterCommitListener;
import io.github.txinbox.bench.xaprice.InboxLocalListener;
import io.github.txinbox.bench.xaprice.InboxXaListener;
import io.github.txinbox.bench.xaprice.PlainXaListener;
import io.github.txinbox.it.app.NonXaDataSourceDefinition;
import io.github.txinbox.it.app.TestDataSourceDefinition;
import io.github.txinbox.it.app.TestDatabase;
import io.github.txinbox.it.harness.Broker;
import io.github.txinbox.it.harness.Deployments;
import io.github.txinbox.it.harness.DurablePostgres;
import io.github.txinbox.it.harness.PayaraMicro;
import io.github.txinbox.it.harness.StandaloneServer;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.UUID;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;

/**
 * Item 6: the price of XA. The same message-driven bean (four sessions, one invoice row per message) in four
 * set-ups, on one Payara Micro running two applications: {@code @Inbox} acknowledged after the commit (the bean without
 * a transaction, the inbox and the invoice in a transaction of their own on a non-XA datasource), {@code @Inbox} with
 * a non-XA datasource in the bean's transaction (the database the one one-phase resource beside the broker's XA
 * branch), {@code @Inbox} with an XA datasource, and no inbox with the XA datasource. The deployments' PostgreSQL flushes every commit to disk, as in production: a server of this benchmark's
 * own ({@link DurablePostgres}) with {@code fsync} and {@code synchronous_commit} on, where the other benchmarks' runs
 * with both off. Rounds
 * of {@value #MESSAGES} messages rotate through the four set-ups, each timed from the first send until its queue is
 * drained.
 */
@Order(6)
class XaPriceBenchmark {

    private static final int MESSAGES = 2_000;
    private static final int ROUNDS = 5;
    private static final Duration BOOT = Duration.ofMinutes(3);

    /** One set-up: its queue, its rounds, and the WAL flushes its rounds caused. */
    private static final class SetUp {
        final String queue;
        final Results.Rounds rounds = new Results.Rounds();
        long walSyncs;
        CpuTime cpu;

        SetUp(String queue) {
            this.queue = queue;
        }
    }

    private static Path export(WebArchive war) throws Exception {
        return Deployments.export(war);
    }

    private static long walSyncs(DurablePostgres database) {
        return database.queryLong("SELECT wal_sync FROM pg_stat_wal");
    }

    private static long invoices(DurablePostgres database, String consumer) {
        return database.queryLong("SELECT count(*) FROM " + TestDatabase.SCHEMA + ".invoice WHERE consumer = '"
                + consumer + "'");
    }

    /** Sends a round to the set-up's queue and times it; counts the WAL flushes it caused. */
    private static double messagesPerSecond(DurablePostgres database, SetUp setUp) {
        List<Map<String, String>> messages = new ArrayList<>(MESSAGES);
        for (int i = 0; i < MESSAGES; i++) {
            messages.add(Map.of(Invoicing.ORDER_ID, "order-" + UUID.randomUUID()));
        }
        long before = invoices(database, setUp.queue);
        long syncs = walSyncs(database);
        CpuTime cpuBefore = CpuTime.now(database::connect);
        long start = System.nanoTime();
        Broker.sendEach(setUp.queue, messages);
        Broker.awaitDrained(setUp.queue, Duration.ofMinutes(10));
        long nanos = System.nanoTime() - start;
        CpuTime used = CpuTime.now(database::connect).minus(cpuBefore);
        setUp.cpu = setUp.cpu == null ? used : setUp.cpu.plus(used);
        setUp.walSyncs += walSyncs(database) - syncs;
        long invoiced = invoices(database, setUp.queue) - before;
        if (invoiced != MESSAGES) {
            throw new IllegalStateException(setUp.queue + ": " + invoiced + " invoices for " + MESSAGES + " messages");
        }
        return MESSAGES / (nanos / 1e9);
    }

    @Test
    void theInboxWithoutXaAgainstXa() throws Exception {
        Path xa = export(Bench.war(InboxXaListener.class, PlainXaListener.class, Invoicing.class));
        WebArchive local = Bench.war(InboxLocalListener.class, InboxAckAfterCommitListener.class,
                AckAfterCommitInvoicing.class, Invoicing.class);
        local.deleteClass(TestDataSourceDefinition.class);
        local.addClass(NonXaDataSourceDefinition.class);
        Path nonXa = export(local);

        try (DurablePostgres database = DurablePostgres.start(System.getProperty("inbox.db.user"));
                StandaloneServer server = PayaraMicro.start(List.of(xa, nonXa), BOOT, List.of(),
                        System.getProperty("txinbox.it.artemis.port"), database.url())) {
            Map<String, SetUp> setUps = new LinkedHashMap<>();
            for (String queue : List.of(InboxAckAfterCommitListener.QUEUE, InboxLocalListener.QUEUE,
                    InboxXaListener.QUEUE, PlainXaListener.QUEUE)) {
                setUps.put(queue, new SetUp(queue));
            }
            // A warm-up round each: the first deliveries also create the sessions and load the classes.
            for (SetUp setUp : setUps.values()) {
                messagesPerSecond(database, setUp);
                setUp.walSyncs = 0;
                setUp.cpu = null;
            }
            List<SetUp> order = new ArrayList<>(setUps.values());
            for (int round = 0; round < ROUNDS; round++) {
                for (int i = 0; i < order.size(); i++) {
                    SetUp setUp = order.get((round + i) % order.size());
                    setUp.rounds.add(messagesPerSecond(database, setUp));
                }
            }
            SetUp ackAfterCommit = setUps.get(InboxAckAfterCommitListener.QUEUE);
            SetUp withoutXa = setUps.get(InboxLocalListener.QUEUE);
            SetUp inboxXa = setUps.get(InboxXaListener.QUEUE);
            SetUp plainXa = setUps.get(PlainXaListener.QUEUE);
            long messages = (long) ROUNDS * MESSAGES;
            String runs = ROUNDS + " rounds of " + MESSAGES + " messages each, rotating; fsync on, synchronous_commit "
                    + "on; WAL flushes per message: @Inbox acknowledged after the commit "
                    + perMessage(ackAfterCommit, messages) + ", @Inbox without XA " + perMessage(withoutXa, messages)
                    + ", @Inbox with XA " + perMessage(inboxXa, messages) + ", XA without the inbox "
                    + perMessage(plainXa, messages) + "; processor time per message (server, PostgreSQL, broker and "
                    + "sender): @Inbox acknowledged after the commit " + cpu(ackAfterCommit, messages)
                    + ", @Inbox without XA " + cpu(withoutXa, messages) + ", @Inbox with XA "
                    + cpu(inboxXa, messages) + ", XA without the inbox " + cpu(plainXa, messages);
            Results.record("6", "MDB throughput, @Inbox acknowledged after the commit vs XA without the inbox, "
                    + "messages/s",
                    Results.format(plainXa.rounds.median(), "msg/s"),
                    Results.format(ackAfterCommit.rounds.median(), "msg/s"),
                    ackAfterCommit.rounds.median() / plainXa.rounds.median(), ">= 1.30", runs);
            Results.record("6", "MDB throughput, @Inbox acknowledged after the commit vs @Inbox with XA, messages/s",
                    Results.format(inboxXa.rounds.median(), "msg/s"),
                    Results.format(ackAfterCommit.rounds.median(), "msg/s"),
                    ackAfterCommit.rounds.median() / inboxXa.rounds.median(), "-", runs);
            Results.record("6", "MDB throughput, @Inbox without XA vs @Inbox with XA, messages/s",
                    Results.format(inboxXa.rounds.median(), "msg/s"),
                    Results.format(withoutXa.rounds.median(), "msg/s"),
                    withoutXa.rounds.median() / inboxXa.rounds.median(), "-", runs);
            Results.record("6", "MDB throughput, @Inbox without XA vs XA without the inbox, messages/s",
                    Results.format(plainXa.rounds.median(), "msg/s"),
                    Results.format(withoutXa.rounds.median(), "msg/s"),
                    withoutXa.rounds.median() / plainXa.rounds.median(), "-", runs);
        }
    }

    private static String cpu(SetUp setUp, long messages) {
        CpuTime cpu = setUp.cpu;
        return micros(cpu.total(), messages) + " (" + micros(cpu.server(), messages) + ", "
                + micros(cpu.database(), messages) + ", " + micros(cpu.client(), messages) + ")";
    }

    private static String micros(long nanos, long messages) {
        return nanos < 0 ? "?" : String.format(Locale.ROOT, "%.0f µs", nanos / 1e3 / messages);
    }

    private static String perMessage(SetUp setUp, long messages) {
        return String.format(Locale.ROOT, "%.2f", (double) setUp.walSyncs / messages);
    }
}
