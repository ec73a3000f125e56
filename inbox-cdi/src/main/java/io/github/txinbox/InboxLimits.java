package io.github.txinbox;

import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;

/**
 * The limits the inbox enforces on its input, and the checks that apply them. {@link InboxRepository} runs these
 * checks before any SQL, so that bad input fails in Java and leaves the caller's transaction usable (once PostgreSQL
 * rejects a statement, the whole transaction is aborted); call them yourself to check input before a transaction
 * starts.
 */
public final class InboxLimits {

    /**
     * The longest scope accepted, in UTF-8 bytes: the default of the setting {@value InboxSettings#SCOPE_BYTES},
     * which may lower it.
     */
    public static final int MAX_SCOPE_BYTES = 255;

    /**
     * The longest message id accepted by default, in UTF-8 bytes; the setting
     * {@value InboxSettings#MESSAGE_ID_BYTES} sets it between 1 and {@value #MESSAGE_ID_BYTES_CEILING}.
     */
    public static final int DEFAULT_MESSAGE_ID_BYTES = 1024;

    /**
     * The most the setting {@value InboxSettings#MESSAGE_ID_BYTES} may be, in UTF-8 bytes. With the longest scope it
     * keeps the primary-key entry (about 2 300 bytes) below PostgreSQL's B-tree ceiling (about 2 700), whose violation
     * would abort the caller's transaction with SQLSTATE 54000.
     */
    public static final int MESSAGE_ID_BYTES_CEILING = 2048;

    /** The most markers one call of {@link InboxRepository#deleteExpiredBatch} may delete. */
    public static final int MAX_BATCH_SIZE = 100_000;

    /**
     * The most message ids one call of {@link InboxRepository#claimAll} accepts: ten times a Kafka consumer's default
     * {@code max.poll.records}. Claim a larger batch in several calls.
     */
    public static final int MAX_CLAIM_IDS = 10_000;

    /** The longest retention accepted by {@link InboxRepository#cleanupCutoff}: 100 years. */
    public static final Duration MAX_RETENTION = Duration.ofDays(36_525);

    /**
     * The earliest instant the delete methods accept, the start of the year 1: as {@code from}, it deletes from the
     * oldest marker on.
     */
    public static final Instant EARLIEST = Instant.parse("0001-01-01T00:00:00Z");

    /** The latest instant the delete methods accept, the end of the year 9999. */
    public static final Instant LATEST = Instant.parse("9999-12-31T23:59:59.999999Z");

    private static final Duration ONE_MICROSECOND = Duration.of(1, ChronoUnit.MICROS);

    private InboxLimits() {
    }

    /**
     * Returns the value if it can be part of a marker's key (a scope or a message id): not null, not blank, no NUL
     * character (PostgreSQL text cannot hold one), no unpaired surrogate (it would be sent as '?' and collide with
     * other ids), and at most {@code maxBytes} bytes in UTF-8 (a B-tree index entry has a size ceiling).
     *
     * @param what     what the caller calls the value, for the message, such as {@code "messageId"}
     * @param value    the value
     * @param maxBytes the most UTF-8 bytes allowed
     * @return the value
     * @throws IllegalArgumentException when the value is null, blank, too long, or holds a NUL character or an
     *                                  unpaired surrogate
     */
    public static String requireKey(String what, String value, int maxBytes) {
        if (value == null) {
            throw new IllegalArgumentException(what + " must not be null");
        }
        if (value.isBlank()) {
            throw new IllegalArgumentException(what + " must not be blank");
        }
        long bytes = 0;
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            if (c == '\0') {
                throw new IllegalArgumentException(what + " must not contain a NUL character (at index " + i + ")");
            }
            if (c < 0x80) {
                bytes += 1;
            } else if (c < 0x800) {
                bytes += 2;
            } else if (Character.isHighSurrogate(c) && i + 1 < value.length()
                    && Character.isLowSurrogate(value.charAt(i + 1))) {
                bytes += 4;
                i++;
            } else if (Character.isSurrogate(c)) {
                throw new IllegalArgumentException(what + " has an unpaired surrogate character at index " + i
                        + ": it is not valid Unicode text");
            } else {
                bytes += 3;
            }
        }
        if (bytes > maxBytes) {
            throw new IllegalArgumentException(what + " is " + bytes + " bytes long in UTF-8; the limit is "
                    + maxBytes + " bytes (it starts with '" + start(value) + "...')");
        }
        return value;
    }

    /**
     * Returns the retention if it is at least one microsecond (PostgreSQL's precision) and at most
     * {@link #MAX_RETENTION}.
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
        if (retention.compareTo(MAX_RETENTION) > 0) {
            throw new IllegalArgumentException("retention must be at most " + MAX_RETENTION + ", but is " + retention);
        }
        return retention;
    }

    /**
     * Returns the batch size if it lies between 1 and {@link #MAX_BATCH_SIZE}.
     *
     * @param what what the caller calls it, for the message, such as {@code "limit"}
     * @param size the batch size
     * @return the size
     * @throws IllegalArgumentException when it is out of range
     */
    public static int requireBatchSize(String what, int size) {
        if (size < 1 || size > MAX_BATCH_SIZE) {
            throw new IllegalArgumentException(what + " must be between 1 and " + MAX_BATCH_SIZE + ", but is " + size);
        }
        return size;
    }

    /**
     * Returns the instant if it lies between {@link #EARLIEST} and {@link #LATEST}, the range PostgreSQL's
     * {@code timestamptz} holds as the inbox writes it.
     *
     * @param what    what the caller calls it, for the message, such as {@code "cutoff"}
     * @param instant the instant
     * @return the instant
     * @throws IllegalArgumentException when it is null or out of range
     */
    public static Instant requireInstant(String what, Instant instant) {
        if (instant == null) {
            throw new IllegalArgumentException(what + " must not be null");
        }
        if (instant.isBefore(EARLIEST) || instant.isAfter(LATEST)) {
            throw new IllegalArgumentException(what + " " + instant + " is out of range: it must lie between "
                    + EARLIEST + " and " + LATEST);
        }
        return instant;
    }

    private static String start(String value) {
        return value.substring(0, value.offsetByCodePoints(0, Math.min(32, value.codePointCount(0, value.length()))));
    }
}
