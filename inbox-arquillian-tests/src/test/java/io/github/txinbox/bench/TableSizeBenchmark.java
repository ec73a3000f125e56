package io.github.txinbox.bench;

import io.github.txinbox.InboxRepository;
import io.github.txinbox.InboxTable;
import io.github.txinbox.it.app.TestDatabase;
import jakarta.annotation.Resource;
import jakarta.inject.Inject;
import jakarta.transaction.UserTransaction;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Item 3: claim latency (each claim in a transaction of its own) with 0, 1 M and 10 M markers already in the table.
 * The table is filled in bulk between the measurements (indexes dropped and rebuilt, then VACUUM ANALYZE, as after
 * steady use); the markers spread over 16 scopes with random ids, like the claims.
 */
@Order(3)
@ExtendWith(ArquillianExtension.class)
class TableSizeBenchmark {

    static final InboxTable TABLE = new InboxTable(Results.SCHEMA, "sized");

    private static final int WARM_UP = 2_000;
    private static final int PER_ROUND = 2_000;
    private static final int ROUNDS = 5;

    @Deployment
    static WebArchive deployment() {
        return Bench.warWithTable(TableSizeBenchmark.class, TABLE);
    }

    @Inject
    InboxRepository inbox;

    @Resource(lookup = "java:comp/UserTransaction")
    UserTransaction transaction;

    /** Latencies of claims, each in its own transaction, in nanoseconds. */
    private long[] claims(int count) throws Exception {
        long[] nanos = new long[count];
        for (int i = 0; i < count; i++) {
            String scope = "scope-" + (i % 16);
            String id = UUID.randomUUID().toString();
            long start = System.nanoTime();
            transaction.begin();
            inbox.claim(scope, id);
            transaction.commit();
            nanos[i] = System.nanoTime() - start;
        }
        return nanos;
    }

    /** Adds markers numbered from {@code from} (inclusive) to {@code to} (exclusive). */
    private static void fill(long from, long to) {
        String table = TABLE.quotedName();
        TestDatabase.update("ALTER TABLE " + table + " DROP CONSTRAINT sized_pkey");
        TestDatabase.update("DROP INDEX " + Results.SCHEMA + ".sized_processed_at_idx");
        TestDatabase.update("INSERT INTO " + table + " (scope, message_id, processed_at) "
                + "SELECT 'scope-' || (i % 16), md5(i::text), now() - (i % 86400) * interval '1 second' "
                + "FROM generate_series(?::bigint, ?::bigint) AS i", from, to - 1);
        TestDatabase.update("ALTER TABLE " + table + " ADD CONSTRAINT sized_pkey PRIMARY KEY (scope, message_id)");
        TestDatabase.update("CREATE INDEX sized_processed_at_idx ON " + table + " (processed_at)");
        TestDatabase.update("VACUUM ANALYZE " + table);
        // The filling writes gigabytes of WAL: without a checkpoint here, one it forces would land in the claims.
        TestDatabase.update("CHECKPOINT");
    }

    private static long markers() {
        return TestDatabase.queryLong("SELECT count(*) FROM " + TABLE.quotedName());
    }

    /** The p50 and p99 of each round, in milliseconds. */
    private record Measured(List<Double> p50s, List<Double> p99s) {

        double p50() {
            return Results.median(p50s);
        }

        double p99() {
            return Results.median(p99s);
        }

        /** The rounds of both, as one measurement. */
        Measured and(Measured other) {
            List<Double> p50 = new ArrayList<>(p50s);
            List<Double> p99 = new ArrayList<>(p99s);
            p50.addAll(other.p50s);
            p99.addAll(other.p99s);
            return new Measured(p50, p99);
        }
    }

    private Measured measure() throws Exception {
        claims(WARM_UP);
        List<Double> p50 = new ArrayList<>();
        List<Double> p99 = new ArrayList<>();
        for (int round = 0; round < ROUNDS; round++) {
            long[] nanos = claims(PER_ROUND);
            p50.add(Results.percentileMillis(nanos, 50));
            p99.add(Results.percentileMillis(nanos, 99));
        }
        return new Measured(p50, p99);
    }

    /**
     * Measures the empty table before and after the full ones (emptied again with TRUNCATE), so that the baseline is
     * not only the first minutes of the run: its figures are the medians of both measurements' rounds.
     */
    @Test
    void claimLatencyAgainstTableSize() throws Exception {
        Measured emptyBefore = measure();
        fill(0, 1_000_000);
        long atMillion = markers();
        Measured million = measure();
        fill(1_000_000, 10_000_000);
        long atTenMillion = markers();
        Measured tenMillion = measure();
        if (atMillion < 1_000_000 || atTenMillion < 10_000_000) {
            throw new IllegalStateException("the table held " + atMillion + " and " + atTenMillion + " markers");
        }
        TestDatabase.update("TRUNCATE " + TABLE.quotedName());
        TestDatabase.update("CHECKPOINT");
        Measured empty = emptyBefore.and(measure());
        String runs = ROUNDS + " rounds of " + PER_ROUND + " (the empty table: " + 2 * ROUNDS + ", before and after); "
                + atMillion + " and " + atTenMillion + " markers before the claims";
        Results.record("3", "claim p50, 1 M markers vs 0", Results.format(empty.p50(), "ms"),
                Results.format(million.p50(), "ms"), million.p50() / empty.p50(), "-", runs);
        Results.record("3", "claim p99, 1 M markers vs 0", Results.format(empty.p99(), "ms"),
                Results.format(million.p99(), "ms"), million.p99() / empty.p99(), "-", runs);
        Results.record("3", "claim p50, 10 M markers vs 0", Results.format(empty.p50(), "ms"),
                Results.format(tenMillion.p50(), "ms"), tenMillion.p50() / empty.p50(), "<= 1.20", runs);
        Results.record("3", "claim p99, 10 M markers vs 0", Results.format(empty.p99(), "ms"),
                Results.format(tenMillion.p99(), "ms"), tenMillion.p99() / empty.p99(), "<= 1.20", runs);
    }
}
