package io.github.txinbox.bench;

import io.github.txinbox.InboxRepository;
import io.github.txinbox.InboxTable;
import io.github.txinbox.ejb.InboxPurger;
import io.github.txinbox.it.app.TestDatabase;
import jakarta.annotation.Resource;
import jakarta.ejb.EJB;
import jakarta.enterprise.concurrent.ManagedExecutorService;
import jakarta.inject.Inject;
import jakarta.transaction.UserTransaction;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.Future;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Item 4: how fast {@link InboxPurger} deletes 1 M expired markers at batch sizes 1 000 and 10 000, against one
 * unbounded {@code DELETE} of the same rows (the physical limit, though it holds its locks to the end); and claim
 * latency while the purge runs, against claims on the same table without it.
 */
@Order(4)
@ExtendWith(ArquillianExtension.class)
class PurgeBenchmark {

    static final InboxTable TABLE = new InboxTable(Results.SCHEMA, "purged");

    private static final int EXPIRED = 1_000_000;
    private static final int ROUNDS = 3;
    private static final Duration RETENTION = Duration.ofDays(1);
    private static final int WARM_UP = 1_000;
    private static final int QUIET = 3_000;

    @Deployment
    static WebArchive deployment() {
        return Bench.warWithTable(PurgeBenchmark.class, TABLE);
    }

    @EJB
    InboxPurger purger;

    @Inject
    InboxRepository inbox;

    @Resource(lookup = "java:comp/UserTransaction")
    UserTransaction transaction;

    @Resource
    ManagedExecutorService executor;

    /**
     * Empties the table and fills it with expired markers, from 32 to 2 days old in the order they were written (the
     * oldest first in the table, as steady use leaves them), then VACUUM ANALYZE.
     */
    private static void fillExpired() {
        String table = TABLE.quotedName();
        TestDatabase.update("TRUNCATE " + table);
        TestDatabase.update("INSERT INTO " + table + " (scope, message_id, processed_at) "
                + "SELECT 'scope-' || (i % 16), md5(i::text), "
                + "now() - interval '32 days' + i * (interval '30 days' / ?) "
                + "FROM generate_series(1, ?) AS i", EXPIRED, EXPIRED);
        TestDatabase.update("VACUUM ANALYZE " + table);
    }

    private static long remainingExpired() {
        return TestDatabase.queryLong("SELECT count(*) FROM " + TABLE.quotedName()
                + " WHERE processed_at < now() - interval '1 day'");
    }

    private static double rowsPerSecond(long rows, long nanos) {
        return rows / (nanos / 1e9);
    }

    private double unboundedDelete() {
        fillExpired();
        long start = System.nanoTime();
        int deleted = TestDatabase.update("DELETE FROM " + TABLE.quotedName()
                + " WHERE processed_at < now() - interval '1 day'");
        long nanos = System.nanoTime() - start;
        check(deleted);
        return rowsPerSecond(deleted, nanos);
    }

    private double purge(int batchSize) {
        fillExpired();
        long start = System.nanoTime();
        long deleted = purger.purgeExpired(RETENTION, batchSize);
        long nanos = System.nanoTime() - start;
        check(deleted);
        return rowsPerSecond(deleted, nanos);
    }

    private static void check(long deleted) {
        if (deleted != EXPIRED || remainingExpired() != 0) {
            throw new IllegalStateException("deleted " + deleted + " of " + EXPIRED + ", " + remainingExpired()
                    + " expired left");
        }
    }

    private long claim() throws Exception {
        String id = UUID.randomUUID().toString();
        long start = System.nanoTime();
        transaction.begin();
        inbox.claim("scope-" + (id.hashCode() & 15), id);
        transaction.commit();
        return System.nanoTime() - start;
    }

    /** The server's garbage collections so far: their count and their total time in milliseconds. */
    private static long[] garbageCollections() {
        long[] total = new long[2];
        for (GarbageCollectorMXBean collector : ManagementFactory.getGarbageCollectorMXBeans()) {
            total[0] += Math.max(0, collector.getCollectionCount());
            total[1] += Math.max(0, collector.getCollectionTime());
        }
        return total;
    }

    private static void add(long[] sum, long[] after, long[] before) {
        sum[0] += after[0] - before[0];
        sum[1] += after[1] - before[1];
    }

    private static String perSecond(long value, long nanos) {
        return Results.format(value / (nanos / 1e9), "").trim();
    }

    /** Latencies of claims, each in a transaction of its own, in nanoseconds. */
    private long[] claims(int count) throws Exception {
        long[] nanos = new long[count];
        for (int i = 0; i < count; i++) {
            nanos[i] = claim();
        }
        return nanos;
    }

    /** Latencies of claims made one after the other until the task is done. */
    private long[] claimsUntilDone(Future<?> task) throws Exception {
        List<Long> nanos = new ArrayList<>();
        while (!task.isDone()) {
            nanos.add(claim());
        }
        return nanos.stream().mapToLong(Long::longValue).toArray();
    }

    @Test
    void purgeRateAgainstAnUnboundedDelete() {
        Results.Rounds unbounded = new Results.Rounds();
        Results.Rounds thousand = new Results.Rounds();
        Results.Rounds tenThousand = new Results.Rounds();
        for (int round = 0; round < ROUNDS; round++) {
            unbounded.add(unboundedDelete());
            thousand.add(purge(1_000));
            tenThousand.add(purge(10_000));
        }
        String runs = ROUNDS + " rounds of " + EXPIRED + " rows";
        Results.record("4", "purge, batch 1 000, vs unbounded DELETE, rows/s",
                Results.format(unbounded.median(), "rows/s"), Results.format(thousand.median(), "rows/s"),
                thousand.median() / unbounded.median(), ">= 0.40", runs);
        Results.record("4", "purge, batch 10 000, vs unbounded DELETE, rows/s",
                Results.format(unbounded.median(), "rows/s"), Results.format(tenThousand.median(), "rows/s"),
                tenThousand.median() / unbounded.median(), ">= 0.40", runs);
    }

    /**
     * For comparison: claim latency while a plain Java loop, touching no database, keeps one core busy for as long as
     * a purge takes. On a machine of two cores, this shows how much of the purge's effect on claims is only the
     * sharing of the processors.
     */
    @Test
    void claimLatencyWhileACoreIsBusy() throws Exception {
        List<Double> quietP99 = new ArrayList<>();
        List<Double> busyP99 = new ArrayList<>();
        for (int round = 0; round < ROUNDS; round++) {
            claims(WARM_UP);
            long[] quiet = claims(QUIET);
            long until = System.nanoTime() + 1_500_000_000L;
            Future<Long> spin = executor.submit(() -> {
                long x = 0;
                while (System.nanoTime() < until) {
                    x += Long.numberOfTrailingZeros(x + 1);
                }
                return x;
            });
            long[] busy = claimsUntilDone(spin);
            spin.get();
            quietP99.add(Results.percentileMillis(quiet, 99));
            busyP99.add(Results.percentileMillis(busy, 99));
        }
        Results.record("4", "for comparison: claim p99 while a Java loop keeps one core busy vs without",
                Results.format(Results.median(quietP99), "ms"), Results.format(Results.median(busyP99), "ms"),
                Results.median(busyP99) / Results.median(quietP99), "-", ROUNDS + " rounds of 1.5 s");
    }

    @Test
    void claimLatencyDuringThePurge() throws Exception {
        List<Double> quietP50 = new ArrayList<>();
        List<Double> quietP99 = new ArrayList<>();
        List<Double> busyP50 = new ArrayList<>();
        List<Double> busyP99 = new ArrayList<>();
        int claimsDuringPurges = 0;
        long[] quietGc = new long[2];
        long[] busyGc = new long[2];
        long quietNanos = 0;
        long busyNanos = 0;
        for (int round = 0; round < ROUNDS; round++) {
            fillExpired();
            claims(WARM_UP);
            long[] gc = garbageCollections();
            long started = System.nanoTime();
            long[] quiet = claims(QUIET);
            quietNanos += System.nanoTime() - started;
            add(quietGc, garbageCollections(), gc);
            fillExpired();
            gc = garbageCollections();
            started = System.nanoTime();
            Future<Long> purge = executor.submit(() -> purger.purgeExpired(RETENTION, 1_000));
            long[] busy = claimsUntilDone(purge);
            busyNanos += System.nanoTime() - started;
            add(busyGc, garbageCollections(), gc);
            check(purge.get());
            claimsDuringPurges += busy.length;
            quietP50.add(Results.percentileMillis(quiet, 50));
            quietP99.add(Results.percentileMillis(quiet, 99));
            busyP50.add(Results.percentileMillis(busy, 50));
            busyP99.add(Results.percentileMillis(busy, 99));
        }
        String runs = ROUNDS + " rounds; " + claimsDuringPurges + " claims during purges; garbage collections per "
                + "second without / during: " + perSecond(quietGc[0], quietNanos) + " / "
                + perSecond(busyGc[0], busyNanos)
                + ", their time per second: " + perSecond(quietGc[1], quietNanos) + " ms / "
                + perSecond(busyGc[1], busyNanos) + " ms";
        double p50 = Results.median(busyP50) / Results.median(quietP50);
        double p99 = Results.median(busyP99) / Results.median(quietP99);
        Results.record("4", "claim p50 during a purge (batch 1 000) vs without",
                Results.format(Results.median(quietP50), "ms"), Results.format(Results.median(busyP50), "ms"), p50,
                "-", runs);
        Results.record("4", "claim p99 during a purge (batch 1 000) vs without",
                Results.format(Results.median(quietP99), "ms"), Results.format(Results.median(busyP99), "ms"), p99,
                "<= 1.10", runs);
    }
}
