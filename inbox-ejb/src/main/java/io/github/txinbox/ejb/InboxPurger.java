package io.github.txinbox.ejb;

import io.github.txinbox.DeletedBatch;
import io.github.txinbox.InboxLimits;
import io.github.txinbox.InboxRepository;
import jakarta.annotation.Resource;
import jakarta.ejb.EJBException;
import jakarta.ejb.Stateless;
import jakarta.ejb.TransactionManagement;
import jakarta.ejb.TransactionManagementType;
import jakarta.inject.Inject;
import jakarta.transaction.Status;
import jakarta.transaction.SystemException;
import jakarta.transaction.UserTransaction;
import java.time.Duration;
import java.time.Instant;
import java.util.function.Supplier;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Deletes expired inbox markers without blocking the inbox.
 *
 * <p>{@link #purgeExpired} reads the cutoff once from the database clock, then deletes expired markers batch by batch,
 * <b>each batch in a transaction of its own</b>, oldest first, until a batch deletes another number than the batch size. A
 * batch first waits for the purge's turn on the table, an advisory lock held until it ends, so several nodes may purge
 * at once: their batches take turns, together they delete each expired marker exactly once, and a batch waits at most
 * for the one that holds the turn ({@link InboxRepository#deleteExpiredBatch(Instant, Instant, int)} says how long).
 * Claims of new messages never wait for a purge.
 *
 * <p>A batch size of 10 000 suits a purge that runs beside live traffic: batches of 1 000 run ten times as many
 * transactions, which raise the claims' tail latency more (docs/benchmarks.md, item 4, has the figures).
 *
 * <p>The retention is the deduplication window: a message delivered again after its marker was purged is processed
 * again. Choose it longer than the broker's longest redelivery horizon.
 *
 * <p>Scheduling is the application's choice, for example:
 *
 * <pre>{@code
 * @Singleton
 * public class InboxCleanup {
 *     @EJB InboxPurger purger;
 *
 *     @Schedule(hour = "*", minute = "*&#47;10", persistent = false)
 *     void purge() {
 *         purger.purgeExpired(Duration.ofDays(14), 10_000);
 *     }
 * }
 * }</pre>
 */
@Stateless
@TransactionManagement(TransactionManagementType.BEAN)
public class InboxPurger {

    private static final Logger LOG = Logger.getLogger(InboxPurger.class.getName());

    @Inject
    private InboxRepository inbox;

    /*
     * Bean-managed: one UserTransaction per batch, begun and committed here, instead of a call per batch to a second,
     * REQUIRES_NEW bean. The benchmark found the two equally fast (docs/benchmarks.md, item 4); this is one bean less.
     */
    @Resource
    private UserTransaction transaction;

    /**
     * Deletes every marker older than the retention, in batches of {@code batchSize}, each in a new transaction. Runs
     * outside the caller's transaction: the caller's transaction, if any, is suspended (the bean manages its own), and
     * batches committed before a failure stay deleted.
     *
     * @param retention how long markers are kept; at least one microsecond, at most
     *                  {@link InboxLimits#MAX_RETENTION}
     * @param batchSize the most markers one transaction deletes, from 1 to {@value InboxLimits#MAX_BATCH_SIZE}
     * @return how many markers this call deleted
     * @throws InvalidPurgeArgumentException when the retention or batch size is out of range
     * @throws jakarta.ejb.EJBException      when a batch fails; the batches before it stay committed
     */
    public long purgeExpired(Duration retention, int batchSize) {
        try {
            InboxLimits.requireRetention(retention);
            InboxLimits.requireBatchSize("batchSize", batchSize);
        } catch (IllegalArgumentException e) {
            throw new InvalidPurgeArgumentException(e);
        }
        Instant cutoff = inTransaction(() -> inbox.cleanupCutoff(retention));
        long total = 0;
        int batchCount = 0;
        Instant from = InboxLimits.EARLIEST;
        DeletedBatch batch;
        do {
            Instant start = from;
            batch = inTransaction(() -> inbox.deleteExpiredBatch(start, cutoff, batchSize));
            total += batch.deleted();
            batchCount++;
            if (batch.newest() != null) {
                // The next batch starts where this one stopped (the repository explains why that matters).
                from = batch.newest();
            }
        } while (batch.deleted() == batchSize);
        long purged = total;
        int count = batchCount;
        LOG.fine(() -> "Purged " + purged + " inbox markers older than " + cutoff + " in " + count + " batches");
        return total;
    }

    /** Runs the work in a transaction of its own, committed when it returns and rolled back when it throws. */
    private <T> T inTransaction(Supplier<T> work) {
        boolean committed = false;
        try {
            transaction.begin();
            T result = work.get();
            transaction.commit();
            committed = true;
            return result;
        } catch (RuntimeException e) {
            throw e;
        } catch (Exception e) {
            throw new EJBException("An inbox purge transaction failed", e);
        } finally {
            if (!committed) {
                rollBack();
            }
        }
    }

    private void rollBack() {
        try {
            if (transaction.getStatus() != Status.STATUS_NO_TRANSACTION) {
                transaction.rollback();
            }
        } catch (SystemException | IllegalStateException | SecurityException e) {
            LOG.log(Level.WARNING, "Could not roll back an inbox purge transaction", e);
        }
    }
}
