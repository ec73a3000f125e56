package io.github.txinbox;

import java.time.Instant;

/**
 * What one call of {@link InboxRepository#deleteExpiredBatch(Instant, Instant, int)} deleted.
 *
 * @param deleted how many markers were deleted; not negative
 * @param newest  the {@code processed_at} of the newest marker deleted, to the microsecond; {@code null} when none
 *                was deleted. Pass it as {@code from} to the next batch.
 */
public record DeletedBatch(int deleted, Instant newest) {

    /**
     * Checks the values.
     *
     * @throws IllegalArgumentException when the count is negative, or the instant is missing for a non-zero count
     *                                  or given for a zero count
     */
    public DeletedBatch {
        if (deleted < 0) {
            throw new IllegalArgumentException("deleted must not be negative, but is " + deleted);
        }
        if ((deleted == 0) != (newest == null)) {
            throw new IllegalArgumentException("newest must be given exactly when markers were deleted: " + deleted
                    + " deleted, newest " + newest);
        }
    }
}
