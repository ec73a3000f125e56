package io.github.txinbox.it;

import static io.github.txinbox.it.app.TestDatabase.INBOX;
import static io.github.txinbox.it.app.TestDatabase.markers;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.txinbox.InboxLimits;
import io.github.txinbox.InboxRepository;
import io.github.txinbox.InboxSettings;
import io.github.txinbox.ejb.InboxPurger;
import io.github.txinbox.ejb.InvalidPurgeArgumentException;
import io.github.txinbox.it.app.RecordedSql;
import io.github.txinbox.it.app.TestDatabase;
import io.github.txinbox.it.app.Transactions;
import io.github.txinbox.it.harness.Deployments;
import io.github.txinbox.it.harness.HeldMarker;
import jakarta.annotation.Resource;
import jakarta.ejb.EJB;
import jakarta.ejb.EJBException;
import jakarta.enterprise.concurrent.ManagedExecutorService;
import jakarta.inject.Inject;
import jakarta.transaction.UserTransaction;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * {@link InboxPurger}: batch by batch, each batch committed on its own, concurrent purgers taking turns, the bound on
 * the wait for a turn, claims never blocked, and the delete going through the {@code processed_at} index. Slow batches are made with a trigger that sleeps.
 */
@Tag("portable")
@ExtendWith(ArquillianExtension.class)
class PurgeIT {

    /** Markers older than a year are expired; the ones the tests arrange are from 2001. */
    private static final Duration RETENTION = Duration.ofDays(365);

    /**
     * The first key of the purge's advisory lock, as docs/cleanup.md states it; the second is the table's OID.
     */
    private static final int PURGE_LOCK_CLASS = 0x74786962;

    @Deployment
    static WebArchive deployment() {
        WebArchive war = Deployments.war(PurgeIT.class, HeldMarker.class);
        // A short bound for the batch that waits for a turn held elsewhere.
        Deployments.withSettings(war, InboxSettings.CLAIM_MAX_WAIT + "=" + HeldMarker.CLAIM_MAX_WAIT);
        return war;
    }

    @Inject
    InboxSettings settings;

    @EJB
    InboxPurger purger;

    @Inject
    InboxRepository inbox;

    @Resource(lookup = "java:comp/UserTransaction")
    UserTransaction transaction;

    @Resource(lookup = "java:comp/DefaultManagedExecutorService")
    ManagedExecutorService executor;

    @BeforeEach
    void emptyTheInbox() {
        TestDatabase.update("TRUNCATE " + INBOX);
    }

    @AfterEach
    void dropTriggers() {
        TestDatabase.fastDeletes();
        TestDatabase.update("DROP TRIGGER IF EXISTS poisoned_delete ON " + INBOX);
    }

    private static long count() {
        return TestDatabase.queryLong("SELECT count(*) FROM " + INBOX);
    }

    @Test
    void deletesExactlyTheExpiredMarkersAndKeepsTheNewerOnes() {
        TestDatabase.insertExpiredMarkers("orders", 95);
        TestDatabase.insertFreshMarkers("orders", 10);
        assertEquals(95, purger.purgeExpired(RETENTION, 10));
        assertEquals(10, count());
        assertEquals(10, TestDatabase.queryLong("SELECT count(*) FROM " + INBOX + " WHERE message_id LIKE 'fresh-%'"));
        assertEquals(0, purger.purgeExpired(RETENTION, 10), "nothing left to purge");
    }

    @Test
    void eachBatchCommitsOnItsOwnWhileThePurgeRuns() throws Exception {
        TestDatabase.insertExpiredMarkers("orders", 50);
        TestDatabase.slowDeletes(0.3);
        Set<Long> seen = new TreeSet<>();
        AtomicBoolean purging = new AtomicBoolean(true);
        CompletableFuture<Void> watcher = CompletableFuture.runAsync(() -> {
            while (purging.get()) {
                seen.add(count());
                sleep(20);
            }
        });
        long purged = purger.purgeExpired(RETENTION, 10);
        purging.set(false);
        watcher.get(10, TimeUnit.SECONDS);

        assertEquals(50, purged);
        assertEquals(0, count());
        List<Long> between = new ArrayList<>(seen);
        between.removeIf(n -> n == 0 || n == 50);
        assertTrue(between.size() >= 2, "a second connection saw no batches committed during the purge: " + seen);
        assertTrue(between.stream().allMatch(n -> n % 10 == 0), "partial batches seen: " + seen);
    }

    @Test
    void twoConcurrentPurgersTakeTurnsAndDeleteDisjointSetsThatAddUpToAll() throws Exception {
        TestDatabase.insertExpiredMarkers("orders", 200);
        TestDatabase.slowDeletes(0.05);
        AtomicBoolean watching = new AtomicBoolean(true);
        AtomicLong mostDeletingAtOnce = new AtomicLong();
        AtomicLong waitsForTheTurn = new AtomicLong();
        CompletableFuture<Void> watcher = CompletableFuture.runAsync(() -> {
            while (watching.get()) {
                mostDeletingAtOnce.accumulateAndGet(TestDatabase.queryLong("SELECT count(*) FROM pg_stat_activity "
                        + "WHERE query LIKE 'WITH deleted AS (%DELETE FROM \"inbox\"%' AND state = 'active'"), Math::max);
                waitsForTheTurn.addAndGet(TestDatabase.queryLong("SELECT count(*) FROM pg_stat_activity "
                        + "WHERE wait_event_type = 'Lock' AND wait_event = 'advisory' AND query LIKE '%pg_advisory_xact_lock%'"));
                sleep(5);
            }
        });
        Future<Long> first = executor.submit(() -> purger.purgeExpired(RETENTION, 10));
        Future<Long> second = executor.submit(() -> purger.purgeExpired(RETENTION, 10));
        long a;
        long b;
        try {
            a = first.get(60, TimeUnit.SECONDS);
            b = second.get(60, TimeUnit.SECONDS);
        } finally {
            watching.set(false);
            watcher.get(10, TimeUnit.SECONDS);
        }

        assertEquals(200, a + b, "deleted " + a + " + " + b);
        assertTrue(a > 0 && b > 0, "the purgers did not overlap: " + a + " + " + b);
        assertEquals(0, count());
        assertEquals(1, mostDeletingAtOnce.get(), "batches of the two purgers ran at the same time");
        assertTrue(waitsForTheTurn.get() > 0, "no purger was seen waiting for its turn");
    }

    @Test
    void aBatchWaitsForItsTurnAtMostTheBoundAndSaysWhoHoldsIt() throws Exception {
        TestDatabase.insertExpiredMarkers("orders", 30);
        long bound = settings.claimMaxWait().toMillis();
        // Another transaction keeps the turn, as a stuck purge batch would: an open transaction holding the lock.
        try (Connection holder = TestDatabase.connect()) {
            holder.setAutoCommit(false);
            try (PreparedStatement turn = TestDatabase.prepare(holder, "SELECT 1 FROM pg_advisory_xact_lock(?, "
                    + "CAST(CAST(CAST(? AS regclass) AS oid) AS integer))", PURGE_LOCK_CLASS, INBOX);
                    ResultSet taken = turn.executeQuery()) {
                assertTrue(taken.next());
            }
            long started = System.nanoTime();
            EJBException failed = assertThrows(EJBException.class, () -> purger.purgeExpired(RETENTION, 10));
            long millis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started);
            assertTrue(millis >= bound - 50 && millis < bound + 5_000, "failed after " + millis + " ms, bound " + bound);
            assertTrue(messages(failed).contains("another transaction held the purge's turn on"), messages(failed));
            assertTrue(messages(failed).contains("classid " + PURGE_LOCK_CLASS), messages(failed));
            assertEquals(30, count(), "a batch deleted without its turn");
            holder.rollback();
        }
        assertEquals(30, purger.purgeExpired(RETENTION, 10), "the turn, given back, lets the purge run");
        assertEquals(0, count());
    }

    private static String messages(Throwable thrown) {
        StringBuilder all = new StringBuilder();
        for (Throwable t = thrown; t != null; t = t.getCause()) {
            all.append(t.getClass().getSimpleName()).append(": ").append(t.getMessage()).append(" | ");
        }
        return all.toString();
    }

    @Test
    void claimsOfNewMessagesDoNotWaitForAPurge() throws Exception {
        TestDatabase.insertExpiredMarkers("orders", 40);
        TestDatabase.slowDeletes(1.0);
        AtomicBoolean watching = new AtomicBoolean(true);
        Set<String> claimsWaitingOnLocks = new TreeSet<>();
        Future<Long> purge = executor.submit(() -> purger.purgeExpired(RETENTION, 10));
        CompletableFuture<Void> watcher = CompletableFuture.runAsync(() -> {
            while (watching.get()) {
                claimsWaitingOnLocks.addAll(claimsWaitingOnLocks());
                sleep(10);
            }
        });
        try {
            awaitPurgeDeleting();
            for (int i = 0; i < 5; i++) {
                String id = "ID:" + UUID.randomUUID();
                long started = System.nanoTime();
                assertTrue(Transactions.commit(transaction, () -> inbox.claim("orders", id)));
                long millis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started);
                assertTrue(millis < 800, "a claim took " + millis + " ms while a batch sleeps 1000 ms");
                assertEquals(1, markers(INBOX, "orders", id));
            }
            assertFalse(purge.isDone(), "the purge ended before the claims: they proved nothing");
        } finally {
            watching.set(false);
            watcher.get(10, TimeUnit.SECONDS);
        }
        assertEquals(40, purge.get(60, TimeUnit.SECONDS));
        assertTrue(claimsWaitingOnLocks.isEmpty(), "claims waited on locks: " + claimsWaitingOnLocks);
    }

    private static Set<String> claimsWaitingOnLocks() {
        Set<String> waiting = new TreeSet<>();
        try (Connection connection = TestDatabase.connect();
                Statement statement = connection.createStatement();
                ResultSet rows = statement.executeQuery("SELECT pid, query FROM pg_stat_activity "
                        + "WHERE wait_event_type = 'Lock' "
                        + "AND query LIKE 'INSERT INTO \"inbox\" (scope, message_id, processed_at)%txinbox.lock_timeout%'")) {
            while (rows.next()) {
                waiting.add(rows.getInt(1) + ": " + rows.getString(2));
            }
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
        return waiting;
    }

    private static void awaitPurgeDeleting() {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while (TestDatabase.queryLong("SELECT count(*) FROM pg_stat_activity "
                + "WHERE query LIKE 'WITH deleted AS (%DELETE FROM \"inbox\"%' AND state = 'active'") == 0) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("the purge never started deleting");
            }
            sleep(10);
        }
    }

    @Test
    void aFailedBatchLeavesTheEarlierBatchesDeleted() {
        TestDatabase.insertExpiredMarkers("orders", 25);
        // The newest expired marker (purged last) cannot be deleted.
        TestDatabase.update("CREATE OR REPLACE FUNCTION " + TestDatabase.SCHEMA + ".poisoned_delete() "
                + "RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN "
                + "IF OLD.message_id = 'expired-25' THEN RAISE EXCEPTION 'poisoned marker'; END IF; "
                + "RETURN OLD; END $$");
        TestDatabase.update("CREATE TRIGGER poisoned_delete BEFORE DELETE ON " + INBOX
                + " FOR EACH ROW EXECUTE FUNCTION " + TestDatabase.SCHEMA + ".poisoned_delete()");

        assertThrows(EJBException.class, () -> purger.purgeExpired(RETENTION, 10));
        assertEquals(5, count(), "the first two batches stay deleted, the third rolled back");
        assertEquals(1, markers(INBOX, "orders", "expired-25"));
    }

    @Test
    @Tag("hibernate") // reads the SQL through Hibernate's StatementInspector
    void theDeleteUsesTheProcessedAtIndex() throws Exception {
        TestDatabase.update("INSERT INTO " + INBOX + " (scope, message_id, processed_at) "
                + "SELECT 'orders', 'm-' || i, now() - i * interval '1 minute' FROM generate_series(1, 20000) AS i");
        TestDatabase.update("ANALYZE " + INBOX);
        Instant cutoff = Instant.now().minus(Duration.ofMinutes(19_500));
        assertEquals(100, (int) Transactions.commit(transaction, () -> inbox.deleteExpiredBatch(cutoff, 100)));

        // The statement exactly as the repository issued it, explained with the same parameters: Hibernate gives each
        // use of ?1 and ?2 a placeholder of its own, and the statement names the range twice (from, cutoff, limit,
        // then from and cutoff again).
        String sql = RecordedSql.last("WITH deleted AS (");
        StringBuilder plan = new StringBuilder();
        try (Connection connection = TestDatabase.connect()) {
            try (Statement statement = connection.createStatement()) {
                statement.execute("SET search_path TO " + TestDatabase.SCHEMA);
            }
            try (PreparedStatement explain = TestDatabase.prepare(connection, "EXPLAIN " + sql,
                    InboxLimits.EARLIEST.toString(), cutoff.toString(), 100, InboxLimits.EARLIEST.toString(),
                    cutoff.toString());
                    ResultSet rows = explain.executeQuery()) {
                while (rows.next()) {
                    plan.append(rows.getString(1)).append('\n');
                }
            }
        }
        assertTrue(plan.toString().contains("Index Scan using inbox_processed_at_idx"), plan.toString());
        assertFalse(plan.toString().contains("Seq Scan"), plan.toString());
    }

    @Test
    void refusesBadArgumentsAsTheyAre() {
        assertEquals("batchSize must be between 1 and 100000, but is 0",
                assertThrows(InvalidPurgeArgumentException.class, () -> purger.purgeExpired(RETENTION, 0))
                        .getMessage());
        assertThrows(IllegalArgumentException.class,
                () -> purger.purgeExpired(RETENTION, InboxLimits.MAX_BATCH_SIZE + 1));
        assertThrows(IllegalArgumentException.class, () -> purger.purgeExpired(Duration.ZERO, 10));
        assertThrows(IllegalArgumentException.class, () -> purger.purgeExpired(Duration.ofDays(-1), 10));
        assertThrows(IllegalArgumentException.class, () -> purger.purgeExpired(null, 10));
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
