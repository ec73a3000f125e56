package io.github.txinbox.bench;

import io.github.txinbox.bench.throughput.InboxListener;
import io.github.txinbox.bench.throughput.Invoicing;
import io.github.txinbox.bench.throughput.PlainListener;
import io.github.txinbox.it.app.TestDatabase;
import io.github.txinbox.it.harness.Broker;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Item 2: the same message-driven bean (four sessions, one invoice row per message, XA over Artemis and PostgreSQL)
 * with and without {@code @Inbox}. Each round sends {@value #MESSAGES} distinct messages in one burst to one of the
 * two queues and times them from the first send until the queue is drained; rounds alternate between the two.
 */
@Order(2)
@ExtendWith(ArquillianExtension.class)
class ThroughputBenchmark {

    private static final int MESSAGES = 10_000;
    private static final int ROUNDS = 5;

    @Deployment(testable = false)
    static WebArchive deployment() {
        return Bench.war(ThroughputBenchmark.class).addPackage(InboxListener.class.getPackage());
    }

    private static double messagesPerSecond(String queue) {
        return messagesPerSecond(queue, new CpuTime[1]);
    }

    /** Sends a round to the queue and times it; also adds the processor time it took to {@code cpu[0]}. */
    private static double messagesPerSecond(String queue, CpuTime[] cpu) {
        List<Map<String, String>> messages = new ArrayList<>(MESSAGES);
        for (int i = 0; i < MESSAGES; i++) {
            messages.add(Map.of(Invoicing.ORDER_ID, "order-" + UUID.randomUUID()));
        }
        long before = invoices(queue);
        CpuTime cpuBefore = CpuTime.now();
        long start = System.nanoTime();
        Broker.sendEach(queue, messages);
        Broker.awaitDrained(queue, Duration.ofMinutes(10));
        long nanos = System.nanoTime() - start;
        CpuTime used = CpuTime.now().minus(cpuBefore);
        cpu[0] = cpu[0] == null ? used : cpu[0].plus(used);
        long invoiced = invoices(queue) - before;
        if (invoiced != MESSAGES) {
            throw new IllegalStateException(queue + ": " + invoiced + " invoices for " + MESSAGES + " messages");
        }
        return MESSAGES / (nanos / 1e9);
    }

    private static long invoices(String consumer) {
        return TestDatabase.queryLong("SELECT count(*) FROM " + TestDatabase.SCHEMA + ".invoice WHERE consumer = ?",
                consumer);
    }

    @Test
    void withAndWithoutTheInbox() {
        // A warm-up round each: the first deliveries also create the sessions and load the classes.
        messagesPerSecond(PlainListener.QUEUE);
        messagesPerSecond(InboxListener.QUEUE);
        Results.Rounds plain = new Results.Rounds();
        Results.Rounds inbox = new Results.Rounds();
        CpuTime[] plainCpu = new CpuTime[1];
        CpuTime[] inboxCpu = new CpuTime[1];
        for (int round = 0; round < ROUNDS; round++) {
            if (round % 2 == 0) {
                plain.add(messagesPerSecond(PlainListener.QUEUE, plainCpu));
                inbox.add(messagesPerSecond(InboxListener.QUEUE, inboxCpu));
            } else {
                inbox.add(messagesPerSecond(InboxListener.QUEUE, inboxCpu));
                plain.add(messagesPerSecond(PlainListener.QUEUE, plainCpu));
            }
        }
        Results.record("2", "MDB throughput with @Inbox vs without, messages/s",
                Results.format(plain.median(), "msg/s"), Results.format(inbox.median(), "msg/s"),
                inbox.median() / plain.median(), ">= 0.95", ROUNDS + " rounds of " + MESSAGES + " messages");
        long messages = (long) ROUNDS * MESSAGES;
        if (plainCpu[0].total() > 0 && inboxCpu[0].total() > 0) {
            Results.record("2", "processor time per message, with @Inbox vs without (server, PostgreSQL, broker)",
                    micros(plainCpu[0].total(), messages), micros(inboxCpu[0].total(), messages),
                    (double) inboxCpu[0].total() / plainCpu[0].total(), "-",
                    "the same rounds; without / with: server " + micros(plainCpu[0].server(), messages) + " / "
                            + micros(inboxCpu[0].server(), messages) + ", PostgreSQL "
                            + micros(plainCpu[0].database(), messages) + " / "
                            + micros(inboxCpu[0].database(), messages) + ", broker and sender "
                            + micros(plainCpu[0].client(), messages) + " / "
                            + micros(inboxCpu[0].client(), messages));
        }
    }

    private static String micros(long nanos, long messages) {
        return Results.format(nanos / 1e3 / messages, "µs").trim();
    }
}
