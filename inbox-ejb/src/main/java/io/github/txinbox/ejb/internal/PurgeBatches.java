package io.github.txinbox.ejb.internal;

import io.github.txinbox.InboxRepository;
import jakarta.ejb.Stateless;
import jakarta.ejb.TransactionAttribute;
import jakarta.ejb.TransactionAttributeType;
import jakarta.inject.Inject;
import java.time.Duration;
import java.time.Instant;

/**
 * Each call in a new transaction of its own ({@code REQUIRES_NEW}), committed when it returns: a batch holds its
 * row locks for one batch only. A bean of its own, so that the purger's calls go through the container (a call
 * through {@code this} would not start a transaction).
 */
@Stateless
@TransactionAttribute(TransactionAttributeType.REQUIRES_NEW)
public class PurgeBatches {

    @Inject
    private InboxRepository inbox;

    /**
     * Reads the cutoff from the database clock.
     *
     * @param retention how long markers are kept
     * @return the cutoff
     */
    public Instant cutoff(Duration retention) {
        return inbox.cleanupCutoff(retention);
    }

    /**
     * Deletes one batch.
     *
     * @param cutoff    markers older than this are deleted
     * @param batchSize the most markers to delete
     * @return how many were deleted
     */
    public int deleteBatch(Instant cutoff, int batchSize) {
        return inbox.deleteExpiredBatch(cutoff, batchSize);
    }
}
