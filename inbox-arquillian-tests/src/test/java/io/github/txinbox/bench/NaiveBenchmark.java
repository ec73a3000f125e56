package io.github.txinbox.bench;

import io.github.txinbox.bench.naive.NaiveHandlers.Way;
import io.github.txinbox.bench.naive.NaiveHandlers;
import io.github.txinbox.it.app.SqlErrors;
import io.github.txinbox.it.app.TestDatabase;
import jakarta.annotation.Resource;
import jakarta.ejb.EJB;
import jakarta.enterprise.concurrent.ManagedThreadFactory;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.atomic.AtomicInteger;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Item 5: the ways users write this without an inbox ({@link NaiveHandlers}), against the inbox's claim: time per
 * message, each in a transaction of its own; and what happens when 20 copies of one message arrive at once.
 */
@Order(5)
@ExtendWith(ArquillianExtension.class)
class NaiveBenchmark {

    private static final int WARM_UP = 1_000;
    private static final int PER_ROUND = 1_000;
    private static final int ROUNDS = 5;
    private static final int COPIES = 20;
    private static final int TRIALS = 10;

    @Deployment
    static WebArchive deployment() {
        // First: Bench.war creates the schema the tables go in.
        WebArchive war = Bench.war(NaiveBenchmark.class);
        String schema = NaiveHandlers.SCHEMA;
        for (String table : new String[] {"naive_keyed", "naive_unkeyed", "naive_marker", "effect"}) {
            TestDatabase.update("DROP TABLE IF EXISTS " + schema + "." + table);
        }
        TestDatabase.update("CREATE TABLE " + schema + ".naive_keyed (scope text NOT NULL, message_id text NOT NULL, "
                + "PRIMARY KEY (scope, message_id))");
        TestDatabase.update("CREATE TABLE " + schema
                + ".naive_unkeyed (scope text NOT NULL, message_id text NOT NULL)");
        TestDatabase.update("CREATE INDEX ON " + schema + ".naive_unkeyed (scope, message_id)");
        TestDatabase.update("CREATE TABLE " + schema + ".naive_marker (scope text NOT NULL, messageid text NOT NULL, "
                + "PRIMARY KEY (scope, messageid))");
        TestDatabase.update("CREATE TABLE " + schema + ".effect (way text NOT NULL, message_id text NOT NULL)");
        return war;
    }

    @EJB
    NaiveHandlers handlers;

    @Resource
    ManagedThreadFactory threads;

    private double microsPerMessage(Way way, int count) {
        long start = System.nanoTime();
        for (int i = 0; i < count; i++) {
            if (handlers.handle(way, UUID.randomUUID().toString()) != NaiveHandlers.Decision.NEW) {
                throw new IllegalStateException(way + " took a fresh id for a duplicate");
            }
        }
        return (System.nanoTime() - start) / 1e3 / count;
    }

    @Test
    void timePerMessage() {
        Map<Way, Results.Rounds> rounds = new EnumMap<>(Way.class);
        for (Way way : Way.values()) {
            microsPerMessage(way, WARM_UP);
            rounds.put(way, new Results.Rounds());
        }
        for (int round = 0; round < ROUNDS; round++) {
            List<Way> order = new ArrayList<>(List.of(Way.values()));
            java.util.Collections.rotate(order, round);
            for (Way way : order) {
                rounds.get(way).add(microsPerMessage(way, PER_ROUND));
            }
        }
        double inbox = rounds.get(Way.INBOX).median();
        for (Way way : Way.values()) {
            if (way != Way.INBOX) {
                double time = rounds.get(way).median();
                Results.record("5", "time per message: " + describe(way) + " vs inbox claim",
                        Results.format(inbox, "µs"), Results.format(time, "µs"), time / inbox, "-",
                        ROUNDS + " rounds of " + PER_ROUND);
            }
        }
    }

    /** What became of the 20 copies of each trial. */
    private record Outcome(long duplicateEffects, long lostMessages, int failedTransactions,
            Map<String, Integer> failures) {
    }

    private Outcome copiesAtOnce(Way way) throws Exception {
        long duplicates = 0;
        long lost = 0;
        AtomicInteger failed = new AtomicInteger();
        Map<String, Integer> failures = new TreeMap<>();
        for (int trial = 0; trial < TRIALS; trial++) {
            String id = "copies-" + UUID.randomUUID();
            CyclicBarrier start = new CyclicBarrier(COPIES);
            List<Thread> started = new ArrayList<>();
            for (int copy = 0; copy < COPIES; copy++) {
                Thread thread = threads.newThread(() -> {
                    try {
                        start.await();
                        NaiveHandlers.Decision decision = handlers.handle(way, id);
                        if (decision == NaiveHandlers.Decision.DUPLICATE_POISONED
                                || decision == NaiveHandlers.Decision.DUPLICATE_ROLLBACK_ONLY) {
                            // The call returned normally, but the container rolled the transaction back.
                            failed.incrementAndGet();
                            synchronized (failures) {
                                failures.merge(decision.name(), 1, Integer::sum);
                            }
                        }
                    } catch (Exception e) {
                        failed.incrementAndGet();
                        synchronized (failures) {
                            failures.merge(cause(e), 1, Integer::sum);
                        }
                    }
                });
                thread.start();
                started.add(thread);
            }
            for (Thread thread : started) {
                thread.join();
            }
            long effects = TestDatabase.queryLong("SELECT count(*) FROM " + NaiveHandlers.SCHEMA
                    + ".effect WHERE message_id = ?", id);
            duplicates += Math.max(0, effects - 1);
            lost += effects == 0 ? 1 : 0;
        }
        return new Outcome(duplicates, lost, failed.get(), failures);
    }

    /** The SQLSTATE of a failure, else its innermost exception's class. */
    private static String cause(Throwable e) {
        String state = SqlErrors.sqlState(e);
        if (state != null) {
            return "SQLSTATE " + state;
        }
        Throwable innermost = e;
        while (innermost.getCause() != null) {
            innermost = innermost.getCause();
        }
        return innermost.getClass().getSimpleName();
    }

    private static String describe(Way way) {
        return switch (way) {
            case INBOX -> "inbox claim";
            case CHECK_THEN_INSERT_KEYED -> "select-then-insert (marker table with a primary key)";
            case CHECK_THEN_INSERT_UNKEYED -> "select-then-insert (marker table without a unique key)";
            case PERSIST_AND_CATCH -> "persist + flush + catch the violation";
        };
    }

    private static String describe(Outcome outcome) {
        return outcome.duplicateEffects() + " duplicate effects, " + outcome.lostMessages() + " lost, "
                + outcome.failedTransactions() + " transactions rolled back"
                + (outcome.failures().isEmpty() ? "" : " " + outcome.failures());
    }

    @Test
    void twentyCopiesAtOnce() throws Exception {
        Outcome inbox = copiesAtOnce(Way.INBOX);
        if (inbox.duplicateEffects() != 0 || inbox.lostMessages() != 0 || inbox.failedTransactions() != 0) {
            throw new AssertionError("the inbox let through: " + describe(inbox));
        }
        for (Way way : Way.values()) {
            Outcome outcome = way == Way.INBOX ? inbox : copiesAtOnce(way);
            Results.record("5", describe(way) + ": " + COPIES + " copies at once, " + TRIALS + " trials",
                    "inbox: " + describe(inbox), describe(outcome), null, way == Way.INBOX ? "0 duplicates" : "-",
                    TRIALS + " trials");
        }
    }
}
