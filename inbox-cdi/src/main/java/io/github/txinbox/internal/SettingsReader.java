package io.github.txinbox.internal;

import io.github.txinbox.Inbox;
import io.github.txinbox.InboxConfigurationException;
import io.github.txinbox.InboxRepository;
import io.github.txinbox.InboxTable;
import java.util.Locale;
import java.util.Optional;
import java.util.function.Function;
import java.util.regex.Pattern;

/**
 * The library's settings, read once per application from MicroProfile Config where the server has it, else from
 * system properties, and checked as a whole: a bad value fails the application's start, naming the property.
 *
 * @param table               the table named by {@value #TABLE}, or {@code null} when none is
 * @param tableCheck          whether the table is checked when the application starts
 * @param defaultKey          the JMS property holding the message id when {@code @Inbox} names none; empty for
 *                            {@code JMSMessageID}
 * @param maxScopeBytes       the longest scope accepted, in UTF-8 bytes
 * @param maxMessageIdBytes   the longest message id accepted, in UTF-8 bytes
 */
public record Settings(InboxTable table, boolean tableCheck, String defaultKey, int maxScopeBytes,
        int maxMessageIdBytes) {

    /** The table, written as in SQL without quotes: {@code inbox} or {@code schema.table}. */
    public static final String TABLE = "txinbox.table";

    /** Whether the table is checked when the application starts: {@code true} or {@code false}. */
    public static final String TABLE_CHECK = "txinbox.table.check";

    /** The JMS property holding the message id for every {@code @Inbox} that names no key. */
    public static final String KEY = "txinbox.key";

    /** The longest scope accepted, in UTF-8 bytes. */
    public static final String SCOPE_BYTES = "txinbox.limits.scope-bytes";

    /** The longest message id accepted, in UTF-8 bytes. */
    public static final String MESSAGE_ID_BYTES = "txinbox.limits.message-id-bytes";

    /**
     * The most a message id may be set to, in bytes. With the longest scope it keeps the primary-key entry
     * (about 2 300 bytes) below PostgreSQL's B-tree ceiling (about 2 700), whose violation would abort the caller's
     * transaction with SQLSTATE 54000.
     */
    public static final int MESSAGE_ID_BYTES_CEILING = 2048;

    /** The defaults, when nothing is configured. */
    public static final Settings DEFAULTS = new Settings(null, true, "", InboxRepository.MAX_SCOPE_BYTES,
            InboxRepository.MAX_MESSAGE_ID_BYTES);

    // A JMS property name is a Java identifier (JMS 3.1, section 3.5.1), ASCII here.
    private static final Pattern PROPERTY_NAME = Pattern.compile("[A-Za-z_$][A-Za-z0-9_$]*");

    /**
     * Checks the settings.
     *
     * @throws InboxConfigurationException when a limit is out of its range or the key is not a JMS property name
     */
    public Settings {
        requireRange(SCOPE_BYTES, maxScopeBytes, InboxRepository.MAX_SCOPE_BYTES);
        requireRange(MESSAGE_ID_BYTES, maxMessageIdBytes, MESSAGE_ID_BYTES_CEILING);
        defaultKey = defaultKey == null || defaultKey.equals(Inbox.JMS_MESSAGE_ID) ? "" : defaultKey;
        if (!defaultKey.isEmpty() && !PROPERTY_NAME.matcher(defaultKey).matches()) {
            throw new InboxConfigurationException(KEY + "=" + defaultKey + " is not valid: a JMS property name is "
                    + "a Java identifier (letters, digits, '_' or '$', not starting with a digit)");
        }
    }

    /**
     * Reads and checks the settings from a source of values.
     *
     * @param source the value of each property, empty when it is not set
     * @return the settings, with the default of each property that is not set
     * @throws InboxConfigurationException when a value is not valid, naming the property and the value
     */
    public static Settings read(Function<String, Optional<String>> source) {
        InboxTable table = value(source, TABLE).map(name -> {
            try {
                return InboxTable.of(name);
            } catch (IllegalArgumentException e) {
                throw new InboxConfigurationException(TABLE + "=" + name + " is not valid: " + e.getMessage());
            }
        }).orElse(null);
        boolean tableCheck = value(source, TABLE_CHECK).map(Settings::bool).orElse(true);
        String key = value(source, KEY).orElse("");
        int scopeBytes = value(source, SCOPE_BYTES).map(v -> integer(SCOPE_BYTES, v))
                .orElse(DEFAULTS.maxScopeBytes());
        int messageIdBytes = value(source, MESSAGE_ID_BYTES).map(v -> integer(MESSAGE_ID_BYTES, v))
                .orElse(DEFAULTS.maxMessageIdBytes());
        return new Settings(table, tableCheck, key, scopeBytes, messageIdBytes);
    }

    /**
     * Returns the table to use, given the {@link InboxTable} bean the application produces, if any.
     *
     * @param produced the produced table, or {@code null} when the application produces none
     * @return the produced table, else the configured one, else {@link InboxTable#DEFAULT}
     * @throws InboxConfigurationException when the application produces one table and the configuration names
     *                                     another: which one was meant cannot be guessed
     */
    public InboxTable tableGiven(InboxTable produced) {
        if (produced != null && table != null && !produced.equals(table)) {
            throw new InboxConfigurationException(TABLE + "=" + table + " names another table than the InboxTable "
                    + "the application produces (" + produced + "); remove one of them");
        }
        return produced != null ? produced : table != null ? table : InboxTable.DEFAULT;
    }

    private static Optional<String> value(Function<String, Optional<String>> source, String property) {
        return source.apply(property).map(String::trim).filter(v -> !v.isEmpty());
    }

    private static boolean bool(String value) {
        return switch (value.toLowerCase(Locale.ROOT)) {
            case "true" -> true;
            case "false" -> false;
            default -> throw new InboxConfigurationException(TABLE_CHECK + "=" + value
                    + " is not valid: use true or false");
        };
    }

    private static int integer(String property, String value) {
        try {
            return Integer.parseInt(value);
        } catch (NumberFormatException e) {
            throw new InboxConfigurationException(property + "=" + value + " is not valid: expected a whole number");
        }
    }

    private static void requireRange(String property, int value, int ceiling) {
        if (value < 1 || value > ceiling) {
            throw new InboxConfigurationException(property + "=" + value + " is not valid: it must lie between 1 and "
                    + ceiling);
        }
    }
}
