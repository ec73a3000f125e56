package io.github.txinbox.bench;

import io.github.txinbox.bench.baseline.BaselineListener;
import io.github.txinbox.bench.throughput.InboxListener;
import io.github.txinbox.bench.throughput.Invoicing;
import io.github.txinbox.bench.throughput.MarkerListener;
import io.github.txinbox.bench.throughput.PlainListener;
import io.github.txinbox.it.app.TestDatabase;
import io.github.txinbox.it.harness.Broker;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Item 2: the same message-driven bean (four sessions, one invoice row per message, XA over Artemis and PostgreSQL)
 * without {@code @Inbox}, with it, and with the marker's bare INSERT written by hand (the floor of what a marker
 * costs); with {@value Baseline#PROPERTY} set, also with {@code @Inbox} from an earlier
 * commit's library, in a deployment of its own. Each round sends {@value #MESSAGES} distinct messages in one burst to one queue and times them
 * from the first send until the queue is drained; the arms take turns, in an order that rotates every round.
 */
@Order(2)
@ExtendWith(ArquillianExtension.class)
class ThroughputBenchmark {

    private static final int MESSAGES = 10_000;
    private static final int ROUNDS = 5;

    /** One listener of the benchmark, on its queue. */
    private enum Arm {
        WITHOUT(PlainListener.QUEUE), INBOX(InboxListener.QUEUE), MARKER_BY_HAND(MarkerListener.QUEUE),
        BASELINE(BaselineListener.QUEUE);

        private final String queue;

        Arm(String queue) {
            this.queue = queue;
        }
    }

    /**
     * What the rounds of one arm measured: the rate of each round, and the processor time of the rounds whose every
     * part could be read (a process that exits as it is read tells none).
     */
    private static final class Measured {
        final List<Double> rates = new ArrayList<>();
        CpuTime cpu;
        int cpuRounds;

        long cpuMessages() {
            return (long) cpuRounds * MESSAGES;
        }
    }

    @Deployment(name = "bench", order = 1, testable = false)
    static WebArchive deployment() {
        return Bench.war(ThroughputBenchmark.class).addPackage(InboxListener.class.getPackage());
    }

    @Deployment(name = "baseline", order = 2, testable = false)
    static WebArchive baseline() {
        return Baseline.configured().map(earlier -> earlier.war(BaselineListener.class, Invoicing.class))
                .orElseGet(() -> Baseline.nothing("ThroughputBaseline"));
    }

    /** Sends a round to the arm's queue and times it; also adds the processor time it took to the arm's. */
    private static void round(Arm arm, Measured measured) {
        List<Map<String, String>> messages = new ArrayList<>(MESSAGES);
        for (int i = 0; i < MESSAGES; i++) {
            messages.add(Map.of(Invoicing.ORDER_ID, "order-" + UUID.randomUUID()));
        }
        long before = invoices(arm.queue);
        CpuTime cpuBefore = CpuTime.now();
        long start = System.nanoTime();
        Broker.sendEach(arm.queue, messages);
        Broker.awaitDrained(arm.queue, Duration.ofMinutes(10));
        long nanos = System.nanoTime() - start;
        CpuTime used = CpuTime.now().minus(cpuBefore);
        long invoiced = invoices(arm.queue) - before;
        if (invoiced != MESSAGES) {
            throw new IllegalStateException(arm.queue + ": " + invoiced + " invoices for " + MESSAGES + " messages");
        }
        if (measured != null) {
            measured.rates.add(MESSAGES / (nanos / 1e9));
            if (used.total() > 0) {
                measured.cpu = measured.cpu == null ? used : measured.cpu.plus(used);
                measured.cpuRounds++;
            }
        }
    }

    private static long invoices(String consumer) {
        return TestDatabase.queryLong("SELECT count(*) FROM " + TestDatabase.SCHEMA + ".invoice WHERE consumer = ?",
                consumer);
    }

    @Test
    void withAndWithoutTheInbox() {
        Optional<Baseline> earlier = Baseline.configured();
        List<Arm> arms = new ArrayList<>(List.of(Arm.WITHOUT, Arm.INBOX, Arm.MARKER_BY_HAND));
        earlier.ifPresent(baseline -> arms.add(Arm.BASELINE));
        // A warm-up round each: the first deliveries also create the sessions and load the classes.
        arms.forEach(arm -> round(arm, null));
        boolean statements = Statements.reset();
        Map<Arm, Measured> results = new EnumMap<>(Arm.class);
        arms.forEach(arm -> results.put(arm, new Measured()));
        for (int round = 0; round < ROUNDS; round++) {
            // Rotate which goes first, so that none always follows another's backlog of garbage and WAL.
            for (int k = 0; k < arms.size(); k++) {
                Arm arm = arms.get((round + k) % arms.size());
                round(arm, results.get(arm));
            }
        }
        String runs = ROUNDS + " rounds of " + MESSAGES + " messages per arm; the ratio is the median of the rounds' "
                + "ratios, ";
        Measured without = results.get(Arm.WITHOUT);
        Measured inbox = results.get(Arm.INBOX);
        throughput("MDB throughput with @Inbox vs without, messages/s", without, inbox, ">= 0.95", runs);
        cpu("processor time per message, with @Inbox vs without (server, PostgreSQL, broker)", without, inbox,
                "without", "with");
        Measured floor = results.get(Arm.MARKER_BY_HAND);
        throughput("the floor: without @Inbox, but with the marker's bare INSERT written by hand in the bean, vs "
                + "without, messages/s", without, floor, "-", runs);
        cpu("processor time per message, the marker by hand vs without (server, PostgreSQL, broker)", without, floor,
                "without", "by hand");
        throughput("@Inbox vs the marker's bare INSERT by hand: what the inbox adds over its row, messages/s", floor,
                inbox, "-", runs);
        earlier.ifPresent(baseline -> {
            Measured then = results.get(Arm.BASELINE);
            throughput("MDB throughput with @Inbox, this build vs " + baseline.name() + ", messages/s", then, inbox,
                    "-", runs);
            cpu("processor time per message with @Inbox, this build vs " + baseline.name()
                    + " (server, PostgreSQL, broker)", then, inbox, baseline.name(), "this build");
        });
        if (statements) {
            statements();
        }
    }

    /**
     * Records what the claim's statement cost PostgreSQL's executor per call, against the handler's own INSERT of its
     * invoice, over the measured rounds of every arm: the marker's row and its two index entries against the invoice's
     * row and its one.
     */
    private static void statements() {
        List<Statements.Cost> costs = Statements.since(MESSAGES);
        Statements.Cost claim = Statements.claim(costs);
        Statements.Cost invoice = Statements.find(costs, "insert into", "invoice");
        if (claim == null || invoice == null) {
            throw new IllegalStateException("pg_stat_statements lists no claim or no invoice INSERT: " + costs);
        }
        StringBuilder listed = new StringBuilder("pg_stat_statements over the measured rounds of every arm; ");
        costs.stream().limit(6).forEach(cost -> listed.append(cost.describe()).append("; "));
        Results.record("2", "PostgreSQL's executor time per call: the claim's statement vs the handler's INSERT of its "
                + "invoice", Results.format(invoice.meanMicros(), "µs"), Results.format(claim.meanMicros(), "µs"),
                claim.meanMicros() / invoice.meanMicros(), "-", listed.toString().replaceAll("; $", ""));
    }

    /** Records the median of the rounds' ratios of throughput, measured over baseline, round by round. */
    private static void throughput(String measure, Measured baseline, Measured measured, String target, String runs) {
        List<Double> ratios = new ArrayList<>();
        for (int i = 0; i < ROUNDS; i++) {
            ratios.add(measured.rates.get(i) / baseline.rates.get(i));
        }
        Results.record("2", measure, Results.format(Results.median(baseline.rates), "msg/s"),
                Results.format(Results.median(measured.rates), "msg/s"), Results.median(ratios), target,
                runs + "which ranged from " + Results.format(Collections.min(ratios), "").trim() + " to "
                        + Results.format(Collections.max(ratios), "").trim());
    }

    /** Records the processor time per message of two arms over all their rounds, with its three parts. */
    private static void cpu(String measure, Measured baseline, Measured measured, String baselineName,
            String measuredName) {
        if (baseline.cpuRounds == 0 || measured.cpuRounds == 0) {
            Results.record("2", measure, "-", "-", null, "-", "not measured: no round's processor time could be read");
            return;
        }
        long before = baseline.cpuMessages();
        long after = measured.cpuMessages();
        // Rounds are counted only when every part was read, so both totals are positive here.
        double ratio = (measured.cpu.total() / (double) after) / (baseline.cpu.total() / (double) before);
        Results.record("2", measure, micros(baseline.cpu.total(), before), micros(measured.cpu.total(), after), ratio,
                "-", "the same rounds (" + baseline.cpuRounds + " and " + measured.cpuRounds + " of them read); "
                        + baselineName + " / " + measuredName + ": server " + micros(baseline.cpu.server(), before)
                        + " / " + micros(measured.cpu.server(), after) + ", PostgreSQL "
                        + micros(baseline.cpu.database(), before) + " / " + micros(measured.cpu.database(), after)
                        + ", broker and sender " + micros(baseline.cpu.client(), before) + " / "
                        + micros(measured.cpu.client(), after));
    }

    private static String micros(long nanos, long messages) {
        return Results.format(nanos / 1e3 / messages, "µs").trim();
    }
}
