package io.github.txinbox.bench;

import io.github.txinbox.InboxLimits;
import io.github.txinbox.InboxRepository;
import io.github.txinbox.InboxTable;
import io.github.txinbox.ejb.InboxPurger;
import io.github.txinbox.it.app.TestDatabase;
import jakarta.annotation.Resource;
import jakarta.ejb.EJB;
import jakarta.enterprise.concurrent.ManagedExecutorService;
import jakarta.inject.Inject;
import jakarta.persistence.EntityManager;
import jakarta.persistence.FlushModeType;
import jakarta.persistence.PersistenceContext;
import jakarta.transaction.UserTransaction;
import java.io.IOException;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.UUID;
import java.util.concurrent.Callable;
import java.util.concurrent.Future;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Item 4: how fast {@link InboxPurger} deletes 1 M expired markers at batch sizes 1 000 and 10 000, against one
 * unbounded {@code DELETE} of the same rows (the physical limit, though it holds its locks to the end); and claim
 * latency while the purge runs, against claims on the same table without it. For comparison, the same batches without
 * the row locks, and the share of time some task of the machine waited for a processor.
 */
@Order(4)
@ExtendWith(ArquillianExtension.class)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class PurgeBenchmark {

    static final InboxTable TABLE = new InboxTable(Results.SCHEMA, "purged");

    private static final int EXPIRED = 1_000_000;
    private static final int ROUNDS = 3;
    private static final Duration RETENTION = Duration.ofDays(1);
    private static final int WARM_UP = 1_000;
    private static final int QUIET = 3_000;

    /** Whether the kernel reports processor pressure; read once, not again for each figure. */
    private static final boolean STALL_KNOWN = cpuStallMicros() >= 0;

    /**
     * For comparison only: the batch statement of 68eba1e, the commit before the purge took turns, which locked the rows
     * it picked ({@code FOR UPDATE SKIP LOCKED}) so that concurrent purges would share rows, and took no turn.
     */
    private static final String DELETE_WITH_ROW_LOCKS = """
            WITH deleted AS (
                DELETE FROM %1$s
                WHERE ctid = ANY (ARRAY(
                    SELECT ctid FROM %1$s
                    WHERE processed_at >= CAST(?1 AS timestamptz) AND processed_at < CAST(?2 AS timestamptz)
                    ORDER BY processed_at
                    LIMIT ?3
                    FOR UPDATE SKIP LOCKED))
                AND processed_at >= CAST(?1 AS timestamptz) AND processed_at < CAST(?2 AS timestamptz)
                RETURNING processed_at)
            SELECT count(*) || '/' || coalesce(CAST(max(processed_at) AS text), '')
            FROM deleted""";

    /** The yardstick of the claims' p99 under a purge: its ratio under a busy Java loop, once measured. */
    private static double busyCoreP99 = Double.NaN;

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

    @PersistenceContext
    EntityManager entityManager;

    /**
     * Empties the table and fills it with expired markers, from 32 to 2 days old in the order they were written (the
     * oldest first in the table, as steady use leaves them), then VACUUM ANALYZE and a CHECKPOINT.
     */
    private static void fillExpired() {
        String table = TABLE.quotedName();
        TestDatabase.update("TRUNCATE " + table);
        TestDatabase.update("INSERT INTO " + table + " (scope, message_id, processed_at) "
                + "SELECT 'scope-' || (i % 16), md5(i::text), "
                + "now() - interval '32 days' + i * (interval '30 days' / ?) "
                + "FROM generate_series(1, ?) AS i", EXPIRED, EXPIRED);
        TestDatabase.update("VACUUM ANALYZE " + table);
        // Each filling writes some 200 MB of WAL: without a checkpoint here, one forced by the WAL of earlier rounds
        // would land at random in some of the measurements and not in others.
        TestDatabase.update("CHECKPOINT");
    }

    /** The WAL PostgreSQL has written so far, in bytes. */
    private static long wal() {
        return TestDatabase.queryLong("SELECT CAST(pg_wal_lsn_diff(pg_current_wal_lsn(), '0/0') AS bigint)");
    }

    /**
     * How long, in microseconds since boot, at least one task of the machine was ready to run but waiting for a
     * processor (Linux pressure stall information); -1 where the kernel does not report it.
     */
    private static long cpuStallMicros() {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/pressure/cpu"))) {
                if (line.startsWith("some ")) {
                    return Long.parseLong(line.substring(line.indexOf("total=") + 6).trim());
                }
            }
        } catch (IOException | RuntimeException e) {
            // Not Linux, or no pressure information: reported as unknown.
        }
        return -1;
    }

    private static long remainingExpired() {
        return TestDatabase.queryLong("SELECT count(*) FROM " + TABLE.quotedName()
                + " WHERE processed_at < now() - interval '1 day'");
    }

    private static double rowsPerSecond(long rows, long nanos) {
        return rows / (nanos / 1e9);
    }

    private double purge(int batchSize, long[] walBytes) throws Exception {
        return timed(() -> purger.purgeExpired(RETENTION, batchSize), walBytes);
    }

    /** Fills the table, runs the purge, checks that it deleted every expired marker; rows per second. */
    private double timed(Callable<Long> purge, long[] walBytes) throws Exception {
        fillExpired();
        long wal = wal();
        long start = System.nanoTime();
        long deleted = purge.call();
        long nanos = System.nanoTime() - start;
        walBytes[0] += wal() - wal;
        check(deleted);
        return rowsPerSecond(deleted, nanos);
    }

    /** Like the purger, batch by batch in transactions of their own, but with {@link #DELETE_WITH_ROW_LOCKS}. */
    private long purgeWithRowLocks(int batchSize) throws Exception {
        String sql = DELETE_WITH_ROW_LOCKS.formatted(TABLE.quotedName());
        transaction.begin();
        String cutoff = inbox.cleanupCutoff(RETENTION).toString();
        transaction.commit();
        String from = InboxLimits.EARLIEST.toString();
        long total = 0;
        int deleted;
        do {
            transaction.begin();
            String result = (String) entityManager.createNativeQuery(sql).setFlushMode(FlushModeType.COMMIT)
                    .setParameter(1, from).setParameter(2, cutoff).setParameter(3, batchSize).getSingleResult();
            transaction.commit();
            int slash = result.indexOf('/');
            deleted = Integer.parseInt(result.substring(0, slash));
            if (slash + 1 < result.length()) {
                from = result.substring(slash + 1);
            }
            total += deleted;
        } while (deleted == batchSize);
        return total;
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

    /** First, so that the purges it runs warm the server up (JIT) before the latency measurements. */
    @Test
    @Order(1)
    void purgeRateAgainstAnUnboundedDelete() throws Exception {
        Results.Rounds unbounded = new Results.Rounds();
        Results.Rounds thousand = new Results.Rounds();
        Results.Rounds tenThousand = new Results.Rounds();
        Results.Rounds withRowLocks = new Results.Rounds();
        long[] unboundedWal = new long[1];
        long[] thousandWal = new long[1];
        long[] tenThousandWal = new long[1];
        long[] withRowLocksWal = new long[1];
        for (int round = 0; round < ROUNDS; round++) {
            unbounded.add(timed(() -> (long) TestDatabase.update("DELETE FROM " + TABLE.quotedName()
                    + " WHERE processed_at < now() - interval '1 day'"), unboundedWal));
            thousand.add(purge(1_000, thousandWal));
            tenThousand.add(purge(10_000, tenThousandWal));
            withRowLocks.add(timed(() -> purgeWithRowLocks(10_000), withRowLocksWal));
        }
        String runs = ROUNDS + " rounds of " + EXPIRED + " rows; WAL per million rows: unbounded "
                + megabytes(unboundedWal) + ", batch 1 000 " + megabytes(thousandWal) + ", batch 10 000 "
                + megabytes(tenThousandWal) + ", batch 10 000 with row locks " + megabytes(withRowLocksWal);
        Results.record("4", "purge, batch 1 000, vs unbounded DELETE, rows/s",
                Results.format(unbounded.median(), "rows/s"), Results.format(thousand.median(), "rows/s"),
                thousand.median() / unbounded.median(), ">= 0.40", runs);
        Results.record("4", "purge, batch 10 000, vs unbounded DELETE, rows/s",
                Results.format(unbounded.median(), "rows/s"), Results.format(tenThousand.median(), "rows/s"),
                tenThousand.median() / unbounded.median(), ">= 0.40", runs);
        Results.record("4", "purge, batch 10 000: this build vs 68eba1e's statement with row locks, rows/s",
                Results.format(withRowLocks.median(), "rows/s"), Results.format(tenThousand.median(), "rows/s"),
                tenThousand.median() / withRowLocks.median(), "-", runs);
        profileBatches(10_000);
    }

    /**
     * Where a batch's time goes: one more purge, its time per batch in the server against what PostgreSQL's executor
     * spent per batch on every statement of the purge ({@code pg_stat_statements}, which the embedded server loads).
     */
    private void profileBatches(int batchSize) throws Exception {
        fillExpired();
        if (!Statements.reset()) {
            return;
        }
        long start = System.nanoTime();
        long deleted = purger.purgeExpired(RETENTION, batchSize);
        long nanos = System.nanoTime() - start;
        check(deleted);
        long batches = deleted / batchSize + 1;
        List<Statements.Cost> costs = Statements.since(batches - 1);
        double executorMicros = costs.stream().mapToDouble(c -> c.calls() * c.meanMicros()).sum() / batches;
        StringBuilder listed = new StringBuilder();
        for (Statements.Cost cost : costs.subList(0, Math.min(4, costs.size()))) {
            listed.append("; ").append(cost.describe());
        }
        Results.record("4", "purge, batch " + String.format(Locale.ROOT, "%,d", batchSize).replace(',', ' ')
                + ": time per batch inside PostgreSQL's executor vs in the server",
                Results.format(executorMicros / 1000, "ms"), Results.format(nanos / 1e6 / batches, "ms"),
                nanos / 1e3 / batches / executorMicros, "-", "one purge of " + EXPIRED + " rows in " + batches
                        + " batches; pg_stat_statements, every statement called once a batch or more" + listed);
    }

    /** Megabytes per million rows, from bytes summed over the rounds. */
    private static String megabytes(long[] bytes) {
        return Results.format(bytes[0] / (double) ROUNDS / EXPIRED, "MB").trim();
    }

    /**
     * For comparison: claim latency while a plain Java loop, touching no database, keeps one core busy for as long as
     * a purge takes. On a machine of two cores, this shows how much of the purge's effect on claims is only the
     * sharing of the processors.
     */
    @Test
    @Order(2)
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
        busyCoreP99 = Results.median(busyP99) / Results.median(quietP99);
        Results.record("4", "for comparison: claim p99 while a Java loop keeps one core busy vs without",
                Results.format(Results.median(quietP99), "ms"), Results.format(Results.median(busyP99), "ms"),
                Results.median(busyP99) / Results.median(quietP99), "-", ROUNDS + " rounds of 1.5 s");
    }

    @Test
    @Order(3)
    void claimLatencyDuringAPurgeInBatchesOf1000() throws Exception {
        claimLatencyDuringThePurge(1_000);
    }

    @Test
    @Order(4)
    void claimLatencyDuringAPurgeInBatchesOf10000() throws Exception {
        claimLatencyDuringThePurge(10_000);
    }

    private void claimLatencyDuringThePurge(int batchSize) throws Exception {
        List<Double> quietP50 = new ArrayList<>();
        List<Double> quietP99 = new ArrayList<>();
        List<Double> busyP50 = new ArrayList<>();
        List<Double> busyP99 = new ArrayList<>();
        int claimsDuringPurges = 0;
        long[] quietGc = new long[2];
        long[] busyGc = new long[2];
        long quietStall = 0;
        long busyStall = 0;
        long quietNanos = 0;
        long busyNanos = 0;
        for (int round = 0; round < ROUNDS; round++) {
            fillExpired();
            claims(WARM_UP);
            long[] gc = garbageCollections();
            long stall = cpuStallMicros();
            long started = System.nanoTime();
            long[] quiet = claims(QUIET);
            quietNanos += System.nanoTime() - started;
            quietStall += cpuStallMicros() - stall;
            add(quietGc, garbageCollections(), gc);
            fillExpired();
            gc = garbageCollections();
            stall = cpuStallMicros();
            started = System.nanoTime();
            Future<Long> purge = executor.submit(() -> purger.purgeExpired(RETENTION, batchSize));
            long[] busy = claimsUntilDone(purge);
            busyNanos += System.nanoTime() - started;
            busyStall += cpuStallMicros() - stall;
            add(busyGc, garbageCollections(), gc);
            check(purge.get());
            claimsDuringPurges += busy.length;
            quietP50.add(Results.percentileMillis(quiet, 50));
            quietP99.add(Results.percentileMillis(quiet, 99));
            busyP50.add(Results.percentileMillis(busy, 50));
            busyP99.add(Results.percentileMillis(busy, 99));
        }
        String runs = ROUNDS + " rounds; " + claimsDuringPurges + " claims during purges; share of time some task "
                + "waited for a processor without / during: " + share(quietStall, quietNanos) + " / "
                + share(busyStall, busyNanos) + "; garbage collections per second without / during: "
                + perSecond(quietGc[0], quietNanos) + " / " + perSecond(busyGc[0], busyNanos)
                + ", their time per second: " + perSecond(quietGc[1], quietNanos) + " ms / "
                + perSecond(busyGc[1], busyNanos) + " ms";
        String batch = String.format(Locale.ROOT, "%,d", batchSize).replace(',', ' ');
        double p50 = Results.median(busyP50) / Results.median(quietP50);
        double p99 = Results.median(busyP99) / Results.median(quietP99);
        Results.record("4", "claim p50 during a purge (batch " + batch + ") vs without",
                Results.format(Results.median(quietP50), "ms"), Results.format(Results.median(busyP50), "ms"), p50,
                "-", runs);
        Results.record("4", "claim p99 during a purge (batch " + batch + ") vs without",
                Results.format(Results.median(quietP99), "ms"), Results.format(Results.median(busyP99), "ms"), p99,
                // No worse than a busy core that is not a purge (the Java loop's row), where that was measured.
                Double.isNaN(busyCoreP99) ? "-" : String.format(Locale.ROOT, "<= %.2f", busyCoreP99), runs);
    }

    /** A stall time in microseconds as a share of an elapsed time in nanoseconds; "unknown" without the figures. */
    private static String share(long stallMicros, long nanos) {
        return !STALL_KNOWN ? "unknown"
                : String.format(Locale.ROOT, "%.0f %%", 100.0 * stallMicros * 1e3 / nanos);
    }
}
