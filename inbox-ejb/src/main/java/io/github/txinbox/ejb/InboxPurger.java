package io.github.txinbox.ejb;

import io.github.txinbox.InboxRepository;
import io.github.txinbox.ejb.internal.PurgeBatches;
import io.github.txinbox.internal.Arguments;
import jakarta.ejb.EJB;
import jakarta.ejb.Stateless;
import jakarta.ejb.TransactionAttribute;
import jakarta.ejb.TransactionAttributeType;
import java.time.Duration;
import java.time.Instant;
import java.util.logging.Logger;

/**
 * Deletes expired inbox markers without blocking the inbox.
 *
 * <p>{@link #purgeExpired} reads the cutoff once from the database clock, then deletes expired markers batch by batch,
 * <b>each batch in a transaction of its own</b>, oldest first, until a batch deletes fewer than the batch size. A
 * batch skips markers that other transactions hold locked ({@code FOR UPDATE SKIP LOCKED}), so several nodes may purge
 * at once: together they delete each expired marker exactly once, and none waits for another. Claims of new messages
 * never wait for a purge.
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
 *         purger.purgeExpired(Duration.ofDays(14), 1_000);
 *     }
 * }
 * }</pre>
 */
@Stateless
public class InboxPurger {

    private static final Logger LOG = Logger.getLogger(InboxPurger.class.getName());

    /** The largest batch size accepted: {@value}. */
    public static final int MAX_BATCH_SIZE = InboxRepository.MAX_BATCH_SIZE;

    @EJB
    private PurgeBatches batches;

    /**
     * Deletes every marker older than the retention, in batches of {@code batchSize}, each in a new transaction. Runs
     * outside the caller's transaction ({@code NOT_SUPPORTED}): the caller's transaction, if any, is suspended, and
     * batches committed before a failure stay deleted.
     *
     * @param retention how long markers are kept; at least one microsecond, at most
     *                  {@link InboxRepository#MAX_RETENTION}
     * @param batchSize the most markers one transaction deletes, from 1 to {@value #MAX_BATCH_SIZE}
     * @return how many markers this call deleted
     * @throws InvalidPurgeArgumentException when the retention or batch size is out of range
     * @throws jakarta.ejb.EJBException      when a batch fails; the batches before it stay committed
     */
    @TransactionAttribute(TransactionAttributeType.NOT_SUPPORTED)
    public long purgeExpired(Duration retention, int batchSize) {
        try {
            Arguments.requireRetention(retention);
            Arguments.requireBatchSize("batchSize", batchSize);
        } catch (IllegalArgumentException e) {
            throw new InvalidPurgeArgumentException(e);
        }
        Instant cutoff = batches.cutoff(retention);
        long total = 0;
        int batchCount = 0;
        int deleted;
        do {
            deleted = batches.deleteBatch(cutoff, batchSize);
            total += deleted;
            batchCount++;
        } while (deleted == batchSize);
        long purged = total;
        int count = batchCount;
        LOG.fine(() -> "Purged " + purged + " inbox markers older than " + cutoff + " in " + count + " batches");
        return total;
    }
}
