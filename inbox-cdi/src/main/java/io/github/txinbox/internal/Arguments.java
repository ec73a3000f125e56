package io.github.txinbox.internal;

import io.github.txinbox.InboxRepository;
import java.time.Duration;
import java.time.temporal.ChronoUnit;

/** The range checks of cleanup arguments, shared by the repository and the EJB purger so that both say the same. */
public final class Arguments {

    private static final Duration ONE_MICROSECOND = Duration.of(1, ChronoUnit.MICROS);

    private Arguments() {
    }

    /**
     * Returns the retention if it is at least one microsecond (PostgreSQL's precision) and at most
     * {@link InboxRepository#MAX_RETENTION}.
     *
     * @param retention the retention
     * @return the retention
     * @throws IllegalArgumentException when it is null or out of range
     */
    public static Duration requireRetention(Duration retention) {
        if (retention == null) {
            throw new IllegalArgumentException("retention must not be null");
        }
        if (retention.compareTo(ONE_MICROSECOND) < 0) {
            throw new IllegalArgumentException("retention must be at least one microsecond, but is " + retention);
        }
        if (retention.compareTo(InboxRepository.MAX_RETENTION) > 0) {
            throw new IllegalArgumentException("retention must be at most " + InboxRepository.MAX_RETENTION
                    + ", but is " + retention);
        }
        return retention;
    }

    /**
     * Returns the batch size if it lies between 1 and {@link InboxRepository#MAX_BATCH_SIZE}.
     *
     * @param name what the caller calls it, for the message
     * @param size the batch size
     * @return the size
     * @throws IllegalArgumentException when it is out of range
     */
    public static int requireBatchSize(String name, int size) {
        if (size < 1 || size > InboxRepository.MAX_BATCH_SIZE) {
            throw new IllegalArgumentException(name + " must be between 1 and " + InboxRepository.MAX_BATCH_SIZE
                    + ", but is " + size);
        }
        return size;
    }
}
