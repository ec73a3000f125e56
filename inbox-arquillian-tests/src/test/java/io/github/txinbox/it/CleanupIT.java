package io.github.txinbox.it;

import static io.github.txinbox.it.app.TestDatabase.INBOX;
import static io.github.txinbox.it.app.TestDatabase.markers;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.txinbox.DeletedBatch;
import io.github.txinbox.InboxLimits;
import io.github.txinbox.InboxRepository;
import io.github.txinbox.InboxSettings;
import io.github.txinbox.it.app.TestDatabase;
import io.github.txinbox.it.app.Transactions;
import io.github.txinbox.it.harness.Deployments;
import io.github.txinbox.it.harness.HeldMarker;
import io.github.txinbox.it.portable.TestEntityManager;
import jakarta.annotation.Resource;
import jakarta.inject.Inject;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceException;
import jakarta.transaction.UserTransaction;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** Batched deletion of expired markers: the boundary, the limit, locked rows, and the deduplication window. */
@Tag("portable")
@ExtendWith(ArquillianExtension.class)
class CleanupIT {

    /** A fixed instant in the past, so that the markers these tests arrange never mix with fresh ones. */
    private static final Instant CUTOFF = Instant.parse("2020-01-01T00:00:00.000010Z");

    @Deployment
    static WebArchive deployment() {
        WebArchive war = Deployments.war(CleanupIT.class, TestEntityManager.class, HeldMarker.class);
        // A short bound for the batch that waits for a marker locked elsewhere.
        Deployments.withSettings(war, InboxSettings.CLAIM_MAX_WAIT + "=" + HeldMarker.CLAIM_MAX_WAIT);
        return war;
    }

    @Inject
    InboxRepository inbox;

    @Inject
    InboxSettings settings;

    @Resource(lookup = "java:comp/UserTransaction")
    UserTransaction transaction;

    @Inject
    TestEntityManager testEntityManager;

    EntityManager entityManager;

    @BeforeEach
    void emptyTheInbox() {
        entityManager = testEntityManager.get();
        TestDatabase.update("TRUNCATE " + INBOX);
    }

    private static void insertMarker(String scope, String messageId, Instant processedAt) {
        TestDatabase.update("INSERT INTO " + INBOX + " (scope, message_id, processed_at) VALUES (?, ?, ?)",
                scope, messageId, OffsetDateTime.ofInstant(processedAt, ZoneOffset.UTC));
    }

    private static long count() {
        return TestDatabase.queryLong("SELECT count(*) FROM " + INBOX);
    }

    private int deleteBatch(Instant cutoff, int limit) throws Exception {
        return Transactions.commit(transaction, () -> inbox.deleteExpiredBatch(cutoff, limit));
    }

    @Test
    void fromALowerBoundItKeepsWhatIsOlderAndReportsTheNewestDeleted() throws Exception {
        Instant from = CUTOFF.minus(10, ChronoUnit.MINUTES);
        insertMarker("orders", "older", from.minus(1, ChronoUnit.MICROS));
        insertMarker("orders", "at-from", from);
        insertMarker("orders", "newest", CUTOFF.minus(1, ChronoUnit.MICROS));
        insertMarker("orders", "at-cutoff", CUTOFF);

        DeletedBatch batch = Transactions.commit(transaction, () -> inbox.deleteExpiredBatch(from, CUTOFF, 10));
        assertEquals(new DeletedBatch(2, CUTOFF.minus(1, ChronoUnit.MICROS)), batch);
        assertEquals(1, markers(INBOX, "orders", "older"));
        assertEquals(0, markers(INBOX, "orders", "at-from"));
        assertEquals(0, markers(INBOX, "orders", "newest"));
        assertEquals(1, markers(INBOX, "orders", "at-cutoff"));

        assertEquals(new DeletedBatch(0, null),
                Transactions.commit(transaction, () -> inbox.deleteExpiredBatch(from, CUTOFF, 10)));
    }

    @Test
    void batchesFromTheNewestOfTheLastDeleteEveryExpiredMarkerOnce() throws Exception {
        // Equal timestamps straddle the batches: the next batch starts at the newest, inclusive.
        for (int i = 0; i < 30; i++) {
            insertMarker("orders", "expired-" + i, CUTOFF.minus(1 + i / 4, ChronoUnit.SECONDS));
        }
        Instant from = InboxLimits.EARLIEST;
        int total = 0;
        int batches = 0;
        DeletedBatch batch;
        do {
            Instant start = from;
            batch = Transactions.commit(transaction, () -> inbox.deleteExpiredBatch(start, CUTOFF, 7));
            total += batch.deleted();
            batches++;
            if (batch.newest() != null) {
                from = batch.newest();
            }
        } while (batch.deleted() == 7);
        assertEquals(30, total);
        assertEquals(5, batches);
        assertEquals(0, count());
    }

    @Test
    void deletesOnlyMarkersStrictlyOlderThanTheCutoff() throws Exception {
        insertMarker("orders", "before", CUTOFF.minus(1, ChronoUnit.MICROS));
        insertMarker("orders", "at", CUTOFF);
        insertMarker("orders", "after", CUTOFF.plus(1, ChronoUnit.MICROS));

        assertEquals(1, deleteBatch(CUTOFF, 10));
        assertEquals(0, markers(INBOX, "orders", "before"));
        assertEquals(1, markers(INBOX, "orders", "at"));
        assertEquals(1, markers(INBOX, "orders", "after"));
    }

    @Test
    void aCutoffBetweenTwoMicrosecondsDeletesWhatIsOlderThanIt() throws Exception {
        insertMarker("orders", "at", CUTOFF);
        // 500 ns after a marker: the marker is older than the cutoff, though PostgreSQL keeps no nanoseconds.
        assertEquals(1, deleteBatch(CUTOFF.plusNanos(500), 10));
        assertEquals(0, count());
    }

    @Test
    void deletesAtMostTheLimitPerCall() throws Exception {
        for (int i = 0; i < 25; i++) {
            insertMarker("orders", "expired-" + i, CUTOFF.minus(i + 1, ChronoUnit.MINUTES));
        }
        insertMarker("orders", "kept", CUTOFF.plus(1, ChronoUnit.DAYS));

        List<Integer> batches = new ArrayList<>();
        int deleted;
        do {
            deleted = deleteBatch(CUTOFF, 10);
            batches.add(deleted);
        } while (deleted == 10);

        assertEquals(List.of(10, 10, 5), batches);
        assertEquals(1, count());
        assertEquals(1, markers(INBOX, "orders", "kept"));
        assertEquals(0, deleteBatch(CUTOFF, 10));
    }

    @Test
    void aMarkerLockedByAnotherTransactionHoldsTheBatchAtMostTheBoundThenFailsIt() throws Exception {
        for (int i = 0; i < 5; i++) {
            insertMarker("orders", "expired-" + i, CUTOFF.minus(1, ChronoUnit.HOURS));
        }
        long bound = settings.claimMaxWait().toMillis();
        try (Connection other = TestDatabase.connect()) {
            other.setAutoCommit(false);
            try (PreparedStatement lock = TestDatabase.prepare(other,
                    "SELECT message_id FROM " + INBOX + " WHERE message_id = ? FOR UPDATE", "expired-2");
                    ResultSet locked = lock.executeQuery()) {
                assertTrue(locked.next());
            }
            long started = System.nanoTime();
            PersistenceException failed = assertThrows(PersistenceException.class,
                    () -> Transactions.commit(transaction, () -> inbox.deleteExpiredBatch(CUTOFF, 100)));
            long millis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started);
            assertTrue(millis >= bound - 50 && millis < bound + 5_000, "failed after " + millis + " ms, bound " + bound);
            assertTrue(failed.getMessage().contains("another transaction held a lock on an expired marker of "),
                    failed.getMessage());
            assertEquals(5, count(), "the failed batch is rolled back whole");
            other.commit();
        }
        assertEquals(5, deleteBatch(CUTOFF, 100), "once unlocked, every marker is deleted");
        assertEquals(0, count());
    }

    @Test
    void aBatchPutsTheTransactionsLockTimeoutBack() throws Exception {
        insertMarker("orders", "expired", CUTOFF.minus(1, ChronoUnit.HOURS));
        String after = Transactions.commit(transaction, () -> {
            entityManager.createNativeQuery("SET LOCAL lock_timeout = '7s'").executeUpdate();
            assertEquals(1, inbox.deleteExpiredBatch(CUTOFF, 100));
            return (String) entityManager.createNativeQuery("SHOW lock_timeout").getSingleResult();
        });
        assertEquals("7s", after);
    }

    @Test
    void aReplayAfterExpiryAndCleanupIsClaimedAgain() throws Exception {
        String id = "ID:" + UUID.randomUUID();
        assertTrue(Transactions.commit(transaction, () -> inbox.claim("orders", id)));
        assertFalse(Transactions.commit(transaction, () -> inbox.claim("orders", id)), "within the window");

        Thread.sleep(20);
        int deleted = Transactions.commit(transaction,
                () -> inbox.deleteExpiredBatch(inbox.cleanupCutoff(Duration.ofMillis(5)), 100));
        assertEquals(1, deleted);
        assertEquals(0, markers(INBOX, "orders", id));

        assertTrue(Transactions.commit(transaction, () -> inbox.claim("orders", id)),
                "past the retention window the replay is processed again");
    }

    @Test
    void theCutoffKeepsMarkersYoungerThanTheRetention() throws Exception {
        String id = "ID:" + UUID.randomUUID();
        assertTrue(Transactions.commit(transaction, () -> inbox.claim("orders", id)));
        int deleted = Transactions.commit(transaction,
                () -> inbox.deleteExpiredBatch(inbox.cleanupCutoff(Duration.ofHours(1)), 100));
        assertEquals(0, deleted);
        assertEquals(1, markers(INBOX, "orders", id));
    }
}
