package io.github.txinbox;

import java.time.Duration;
import java.util.regex.Pattern;

/**
 * The settings the inbox runs with in an application: read once when the application starts, from MicroProfile
 * Config where the server has it (which includes system properties and environment variables), else from system
 * properties, and checked as a whole. A bad value fails the application's start with an
 * {@link InboxConfigurationException} naming the property. The names of the properties are the constants of this
 * class; inject {@code InboxSettings} to see the values in effect.
 *
 * @param table             the inbox table: the {@link InboxTable} the application produces, else the one named by
 *                          {@value #TABLE}, else {@link InboxTable#DEFAULT}
 * @param tableCheck        whether the table is checked when the application starts ({@value #TABLE_CHECK}, default
 *                          {@code true})
 * @param defaultKey        the JMS property holding the message id when {@code @Inbox} names none ({@value #KEY});
 *                          empty, the default, for the {@code JMSMessageID}
 * @param maxScopeBytes     the longest scope accepted, in UTF-8 bytes ({@value #SCOPE_BYTES}, default
 *                          {@value InboxLimits#MAX_SCOPE_BYTES})
 * @param maxMessageIdBytes the longest message id accepted, in UTF-8 bytes ({@value #MESSAGE_ID_BYTES}, default
 *                          {@value InboxLimits#DEFAULT_MESSAGE_ID_BYTES})
 * @param preparedTransactionAge how long a transaction may stay prepared in the database before the readiness check
 *                          reports it ({@value #PREPARED_TRANSACTION_AGE}, an ISO-8601 duration; default 5 minutes)
 * @param claimMaxWait      how long a claim waits for a marker that another transaction holds before it gives up
 *                          and the delivery is {@link InboxOutcome#HELD} ({@value #CLAIM_MAX_WAIT}, an ISO-8601
 *                          duration; default {@link #DEFAULT_CLAIM_MAX_WAIT}); it also bounds a purge batch's
 *                          wait for its turn on the table and for an expired marker that another transaction locked
 *                          ({@link InboxRepository#deleteExpiredBatch(java.time.Instant, int)})
 */
public record InboxSettings(InboxTable table, boolean tableCheck, String defaultKey, int maxScopeBytes,
        int maxMessageIdBytes, Duration preparedTransactionAge, Duration claimMaxWait) {

    /** The table, written as in SQL without quotes: {@code inbox} or {@code schema.table}. */
    public static final String TABLE = "txinbox.table";

    /** Whether the table is checked when the application starts: {@code true} or {@code false}. */
    public static final String TABLE_CHECK = "txinbox.table.check";

    /** The JMS property holding the message id for every {@code @Inbox} that names no key. */
    public static final String KEY = "txinbox.key";

    /** The longest scope accepted, in UTF-8 bytes, from 1 to {@value InboxLimits#MAX_SCOPE_BYTES}. */
    public static final String SCOPE_BYTES = "txinbox.limits.scope-bytes";

    /** The longest message id accepted, in UTF-8 bytes, from 1 to {@value InboxLimits#MESSAGE_ID_BYTES_CEILING}. */
    public static final String MESSAGE_ID_BYTES = "txinbox.limits.message-id-bytes";

    /**
     * How long a transaction may stay prepared in the database before the readiness check (MicroProfile Health)
     * reports it, as an ISO-8601 duration such as {@code PT5M}; from zero to {@link InboxLimits#MAX_RETENTION}.
     */
    public static final String PREPARED_TRANSACTION_AGE = "txinbox.health.prepared-transaction-age";

    /**
     * How long a claim waits for a marker that another transaction holds (inserted and not yet committed or rolled
     * back, or prepared and in doubt), as an ISO-8601 duration such as {@code PT10S}; whole milliseconds, from
     * {@link #SHORTEST_CLAIM_WAIT} to {@link #LONGEST_CLAIM_WAIT}. Past it the claim gives up: the delivery rolls back
     * and comes again after the broker's delay.
     */
    public static final String CLAIM_MAX_WAIT = "txinbox.claim.max-wait";

    /**
     * The default of {@value #CLAIM_MAX_WAIT}: ten seconds. A copy's claim waits for the first copy's transaction,
     * which holds the marker for as long as its handler runs (milliseconds to a few seconds), and is then a duplicate
     * without a rollback; a marker held longer belongs to a transaction that is stuck or in doubt, which lasts
     * minutes or until someone ends it, and waiting for it would hold the consumer's session and the messages it has
     * been sent.
     */
    public static final Duration DEFAULT_CLAIM_MAX_WAIT = Duration.ofSeconds(10);

    /** The shortest {@value #CLAIM_MAX_WAIT}: one millisecond, PostgreSQL's unit for {@code lock_timeout}. */
    public static final Duration SHORTEST_CLAIM_WAIT = Duration.ofMillis(1);

    /** The longest {@value #CLAIM_MAX_WAIT}: 24 hours. */
    public static final Duration LONGEST_CLAIM_WAIT = Duration.ofHours(24);

    /** The settings when nothing is configured. */
    public static final InboxSettings DEFAULTS = new InboxSettings(InboxTable.DEFAULT, true, "",
            InboxLimits.MAX_SCOPE_BYTES, InboxLimits.DEFAULT_MESSAGE_ID_BYTES, Duration.ofMinutes(5),
            DEFAULT_CLAIM_MAX_WAIT);

    // A JMS property name is a Java identifier (JMS 3.1, section 3.5.1), ASCII here.
    private static final Pattern PROPERTY_NAME = Pattern.compile("[A-Za-z_$][A-Za-z0-9_$]*");

    /**
     * Checks the settings; a {@code null} or {@link Inbox#JMS_MESSAGE_ID} key becomes empty.
     *
     * @throws InboxConfigurationException when the table is missing, a limit is out of its range, the key is not
     *                                     a JMS property name, the prepared-transaction age is missing, negative
     *                                     or above {@link InboxLimits#MAX_RETENTION}, the claim's wait is missing,
     *                                     out of its range or not whole milliseconds
     */
    public InboxSettings {
        if (table == null) {
            throw new InboxConfigurationException("The inbox table must not be null");
        }
        requireRange(SCOPE_BYTES, maxScopeBytes, InboxLimits.MAX_SCOPE_BYTES);
        requireRange(MESSAGE_ID_BYTES, maxMessageIdBytes, InboxLimits.MESSAGE_ID_BYTES_CEILING);
        if (preparedTransactionAge == null || preparedTransactionAge.isNegative()
                || preparedTransactionAge.compareTo(InboxLimits.MAX_RETENTION) > 0) {
            throw new InboxConfigurationException(PREPARED_TRANSACTION_AGE + "=" + preparedTransactionAge
                    + " is not valid: it must lie between PT0S and " + InboxLimits.MAX_RETENTION);
        }
        if (claimMaxWait == null || claimMaxWait.compareTo(SHORTEST_CLAIM_WAIT) < 0
                || claimMaxWait.compareTo(LONGEST_CLAIM_WAIT) > 0 || claimMaxWait.getNano() % 1_000_000 != 0) {
            throw new InboxConfigurationException(CLAIM_MAX_WAIT + "=" + claimMaxWait + " is not valid: it must lie "
                    + "between " + SHORTEST_CLAIM_WAIT + " and " + LONGEST_CLAIM_WAIT + ", in whole milliseconds");
        }
        defaultKey = defaultKey == null || defaultKey.equals(Inbox.JMS_MESSAGE_ID) ? "" : defaultKey;
        if (!defaultKey.isEmpty() && !PROPERTY_NAME.matcher(defaultKey).matches()) {
            throw new InboxConfigurationException(KEY + "=" + defaultKey + " is not valid: a JMS property name is "
                    + "a Java identifier (letters, digits, '_' or '$', not starting with a digit)");
        }
    }

    private static void requireRange(String property, int value, int ceiling) {
        if (value < 1 || value > ceiling) {
            throw new InboxConfigurationException(property + "=" + value + " is not valid: it must lie between 1 and "
                    + ceiling);
        }
    }
}
