package io.github.txinbox.it;

import static io.github.txinbox.it.app.TestDatabase.INBOX;
import static io.github.txinbox.it.app.TestDatabase.markers;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.txinbox.InboxMarkerHeldException;
import io.github.txinbox.InboxRepository;
import io.github.txinbox.InboxSettings;
import io.github.txinbox.InboxTable;
import io.github.txinbox.it.app.Note;
import io.github.txinbox.it.app.TestDatabase;
import io.github.txinbox.it.app.Transactions;
import io.github.txinbox.it.harness.Deployments;
import io.github.txinbox.it.harness.HeldMarker;
import io.github.txinbox.it.portable.TestEntityManager;
import jakarta.annotation.Resource;
import jakarta.inject.Inject;
import jakarta.persistence.EntityManager;
import jakarta.persistence.EntityManagerFactory;
import jakarta.persistence.PersistenceUnit;
import jakarta.transaction.UserTransaction;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;
import org.hibernate.SessionFactory;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** Claims in the container's JTA transactions, checked against what PostgreSQL committed. */
@Tag("portable")
@ExtendWith(ArquillianExtension.class)
class ClaimIT {

    @Deployment
    static WebArchive deployment() {
        WebArchive war = Deployments.war(ClaimIT.class, TestEntityManager.class, HeldMarker.class);
        Deployments.withSettings(war, InboxSettings.CLAIM_MAX_WAIT + "=" + HeldMarker.CLAIM_MAX_WAIT);
        return war;
    }

    @Inject
    InboxRepository inbox;

    @Resource(lookup = "java:comp/UserTransaction")
    UserTransaction transaction;

    @Inject
    TestEntityManager testEntityManager;

    EntityManager entityManager;

    @PersistenceUnit
    EntityManagerFactory entityManagerFactory;

    @BeforeEach
    void takeTheEntityManager() {
        entityManager = testEntityManager.get();
    }

    private static String newId() {
        return "ID:" + UUID.randomUUID();
    }

    @Test
    void firstDeliveryClaimsAndRedeliveryDoesNot() throws Exception {
        String id = newId();
        assertTrue(Transactions.commit(transaction, () -> inbox.claim("orders", id)));
        assertEquals(1, markers(INBOX, "orders", id));
        assertFalse(Transactions.commit(transaction, () -> inbox.claim("orders", id)));
        assertEquals(1, markers(INBOX, "orders", id));
    }

    @Test
    void aSecondClaimInTheSameTransactionSeesTheFirst() throws Exception {
        String id = newId();
        boolean[] claims = Transactions.commit(transaction,
                () -> new boolean[] {inbox.claim("orders", id), inbox.claim("orders", id)});
        assertTrue(claims[0]);
        assertFalse(claims[1]);
        assertEquals(1, markers(INBOX, "orders", id));
    }

    @Test
    void scopesAreIndependent() throws Exception {
        String id = newId();
        assertTrue(Transactions.commit(transaction, () -> inbox.claim("orders", id)));
        assertTrue(Transactions.commit(transaction, () -> inbox.claim("billing", id)));
        assertFalse(Transactions.commit(transaction, () -> inbox.claim("billing", id)));
        assertEquals(1, markers(INBOX, "orders", id));
        assertEquals(1, markers(INBOX, "billing", id));
    }

    @Test
    void rollbackRemovesTheMarkerAndTheNextClaimSucceeds() throws Exception {
        String id = newId();
        assertTrue(Transactions.rollback(transaction, () -> inbox.claim("orders", id)));
        assertEquals(0, markers(INBOX, "orders", id));
        assertTrue(Transactions.commit(transaction, () -> inbox.claim("orders", id)));
        assertEquals(1, markers(INBOX, "orders", id));
    }

    @Test
    void aBatchClaimsOnlyItsNewIdsEachOnceAndRollsBackWhole() throws Exception {
        String done = newId();
        String fresh = newId();
        String quoted = "ID:\"quoted\\ \uD83D\uDE00 " + UUID.randomUUID();
        assertTrue(Transactions.commit(transaction, () -> inbox.claim("orders", done)));
        assertEquals(List.of(fresh, quoted), List.copyOf(Transactions.commit(transaction,
                () -> inbox.claimAll("orders", List.of(fresh, done, fresh, quoted)))));
        assertEquals(1, markers(INBOX, "orders", fresh));
        assertEquals(1, markers(INBOX, "orders", quoted));
        assertEquals(Set.of(), Transactions.commit(transaction,
                () -> inbox.claimAll("orders", List.of(quoted, done, fresh))), "every id was processed before");
        String rolledBack = newId();
        assertEquals(Set.of(rolledBack), Transactions.rollback(transaction,
                () -> inbox.claimAll("orders", List.of(rolledBack, done))));
        assertEquals(0, markers(INBOX, "orders", rolledBack), "the rolled-back batch left its marker");
        assertEquals(Set.of(rolledBack), Transactions.commit(transaction,
                () -> inbox.claimAll("orders", List.of(done, rolledBack))));
        assertEquals(Set.of(), Transactions.commit(transaction, () -> inbox.claimAll("orders", List.of())));
    }

    @Test
    void aBatchGivesUpAfterTheBoundOnAHeldIdAndMarksTheTransactionForRollback() throws Exception {
        String id = newId();
        String other = newId();
        try (HeldMarker held = HeldMarker.hold("orders", "claim-it", id)) {
            InboxMarkerHeldException thrown = assertThrows(InboxMarkerHeldException.class,
                    () -> Transactions.commit(transaction, () -> inbox.claimAll("orders", List.of(other, id))));
            assertEquals("55P03", sqlState(thrown.getCause()), "lock_not_available, in " + thrown);
            held.rollBack();
        }
        assertEquals(0, markers(INBOX, "orders", other), "the failed batch committed a marker");
        assertEquals(Set.of(other, id), Transactions.commit(transaction,
                () -> inbox.claimAll("orders", List.of(other, id))), "claimed once released");
    }

    @Test
    void theHandlersWritesAndTheMarkerCommitTogether() throws Exception {
        String id = newId();
        Note note = new Note("handled " + id);
        Transactions.commit(transaction, () -> {
            assertTrue(inbox.claim("orders", id));
            entityManager.persist(note);
            return null;
        });
        assertEquals(1, markers(INBOX, "orders", id));
        assertEquals(1, TestDatabase.queryLong("SELECT count(*) FROM txinbox_it.note WHERE id = ?", note.getId()));
    }

    @Test
    void waitsForAConcurrentMarkerThenReturnsFalseWhenItCommits() throws Exception {
        assertEquals(false, claimWhileAnotherTransactionHoldsTheKey(true));
    }

    @Test
    void waitsForAConcurrentMarkerThenReturnsTrueWhenItRollsBack() throws Exception {
        assertEquals(true, claimWhileAnotherTransactionHoldsTheKey(false));
    }

    /**
     * A side connection inserts the marker and keeps its transaction open; the claim in the container must wait
     * on that row's lock (seen in pg_stat_activity) until the side transaction ends, then answer by its outcome.
     */
    private boolean claimWhileAnotherTransactionHoldsTheKey(boolean sideCommits) throws Exception {
        String id = newId();
        try (Connection side = TestDatabase.connect()) {
            side.setAutoCommit(false);
            try (PreparedStatement insert = TestDatabase.prepare(side,
                    "INSERT INTO " + INBOX + " (scope, message_id) VALUES (?, ?)", "orders", id)) {
                assertEquals(1, insert.executeUpdate());
            }
            CompletableFuture<Boolean> sawClaimWaiting = CompletableFuture.supplyAsync(() -> {
                try {
                    return awaitBackendWaitingOnLock(Duration.ofSeconds(30));
                } finally {
                    try {
                        if (sideCommits) {
                            side.commit();
                        } else {
                            side.rollback();
                        }
                    } catch (Exception e) {
                        throw new IllegalStateException(e);
                    }
                }
            });
            boolean claimed = Transactions.commit(transaction, () -> inbox.claim("orders", id));
            assertTrue(sawClaimWaiting.get(30, TimeUnit.SECONDS), "the claim never waited on the side transaction");
            assertEquals(1, markers(INBOX, "orders", id));
            return claimed;
        }
    }

    private static boolean awaitBackendWaitingOnLock(Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (System.nanoTime() < deadline) {
            long waiting = TestDatabase.queryLong("""
                    SELECT count(*) FROM pg_stat_activity
                    WHERE wait_event_type = 'Lock'
                        AND query LIKE 'INSERT INTO "inbox" (scope, message_id, processed_at)%txinbox.lock_timeout%'""");
            if (waiting > 0) {
                return true;
            }
            try {
                Thread.sleep(20);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return false;
            }
        }
        return false;
    }

    @Test
    @Tag("hibernate") // counts flushes with Hibernate's statistics
    void claimDoesNotFlushTheSession() throws Exception {
        // No Hibernate type in a signature of this class (lambdas included): the class must load without Hibernate.
        LongSupplier flushes = entityManagerFactory.unwrap(SessionFactory.class).getStatistics()::getFlushCount;
        Note note = new Note("pending");
        Transactions.commit(transaction, () -> {
            entityManager.persist(note);
            long flushesBefore = flushes.getAsLong();
            assertTrue(inbox.claim("orders", newId()));
            assertEquals(flushesBefore, flushes.getAsLong(), "the claim flushed the persistence context");
            return null;
        });
        assertEquals(1, TestDatabase.queryLong("SELECT count(*) FROM txinbox_it.note WHERE id = ?", note.getId()));
    }

    @Test
    void cutoffFollowsTheDatabaseClock() throws Exception {
        Duration retention = Duration.ofHours(1).plusNanos(123_456_000);
        Instant[] seen = Transactions.commit(transaction, () -> {
            // now() is the transaction's start on the database clock: let the JVM's clock move on first.
            // As text, which every provider returns as a String.
            Instant databaseNow = Instant.parse((String) entityManager.createNativeQuery(
                    "SELECT to_char(now() AT TIME ZONE 'UTC', 'YYYY-MM-DD\"T\"HH24:MI:SS.US\"Z\"')")
                    .getSingleResult());
            Thread.sleep(200);
            return new Instant[] {databaseNow, inbox.cleanupCutoff(retention), Instant.now()};
        });
        Instant databaseNow = seen[0];
        Instant cutoff = seen[1];
        assertEquals(databaseNow.minus(retention).truncatedTo(ChronoUnit.MICROS), cutoff);
        assertTrue(Duration.between(cutoff.plus(retention), seen[2]).toMillis() >= 200,
                "the cutoff moved with the JVM clock");
    }

    @Test
    void givesUpAfterTheBoundWhileAnotherTransactionHoldsTheKeyWithSqlState55P03() throws Exception {
        String id = newId();
        try (HeldMarker held = HeldMarker.hold("orders", "claim-it", id)) {
            long start = System.nanoTime();
            InboxMarkerHeldException thrown = assertThrows(InboxMarkerHeldException.class,
                    () -> Transactions.commit(transaction, () -> inbox.claim("orders", id)));
            long waited = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
            assertEquals("55P03", sqlState(thrown.getCause()), "lock_not_available, in " + thrown);
            long bound = HeldMarker.CLAIM_MAX_WAIT.toMillis();
            assertTrue(waited >= bound && waited < bound + 2_000, "waited " + waited + " ms for a bound of " + bound);
            held.rollBack();
        }
        assertEquals(0, markers(INBOX, "orders", id));
        assertTrue(Transactions.commit(transaction, () -> inbox.claim("orders", id)), "claimed once released");
    }

    @Test
    void leavesTheTransactionsLockTimeoutAsItFoundIt() throws Exception {
        String first = newId();
        String[] seen = Transactions.commit(transaction, () -> {
            String before = lockTimeout();
            inbox.claim("orders", first);
            String unchanged = lockTimeout();
            entityManager.createNativeQuery("SELECT set_config('lock_timeout', '7s', true)").getSingleResult();
            inbox.claim("orders", newId());
            String afterClaim = lockTimeout();
            // A duplicate inserts no row, so the statement's own RETURNING cannot put the value back.
            boolean again = inbox.claim("orders", first);
            return new String[] {before, unchanged, afterClaim, String.valueOf(again), lockTimeout()};
        });
        assertEquals(seen[0], seen[1], "the claim put the session's lock_timeout back");
        assertEquals("7s", seen[2], "the claim put the transaction's own lock_timeout back");
        assertEquals("false", seen[3], "the second claim of the same id is a duplicate");
        assertEquals("7s", seen[4], "the duplicate put the transaction's own lock_timeout back");
        String[] committed = Transactions.commit(transaction, () -> {
            entityManager.createNativeQuery("SELECT set_config('lock_timeout', '3s', true)").getSingleResult();
            boolean again = inbox.claim("orders", first);
            return new String[] {String.valueOf(again), lockTimeout()};
        });
        assertEquals("false", committed[0], "a claim of a committed marker is a duplicate");
        assertEquals("3s", committed[1], "the duplicate of a committed marker put the lock_timeout back");
    }

    private String lockTimeout() {
        return (String) entityManager.createNativeQuery("SELECT current_setting('lock_timeout')").getSingleResult();
    }

    private static String sqlState(Throwable thrown) {
        for (Throwable t = thrown; t != null; t = t.getCause()) {
            if (t instanceof SQLException sql && sql.getSQLState() != null) {
                return sql.getSQLState();
            }
        }
        return null;
    }

    @Test
    void usesTheDefaultTable() {
        assertEquals(InboxTable.DEFAULT, inbox.table());
    }
}
