package io.github.txinbox.internal.settings;

import io.github.txinbox.InboxConfigurationException;
import io.github.txinbox.InboxSettings;
import io.github.txinbox.InboxTable;
import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.Locale;
import java.util.Optional;
import java.util.function.Function;

/** Reads the {@link InboxSettings} from a source of property values and checks them as a whole. */
final class SettingsReader {

    private SettingsReader() {
    }

    /**
     * Reads and checks the settings.
     *
     * @param source   the value of each property, empty when it is not set
     * @param produced the {@link InboxTable} the application produces, or {@code null} when it produces none
     * @return the settings, with the default of each property that is not set
     * @throws InboxConfigurationException when a value is not valid, naming the property and the value, or the
     *                                     application produces one table and the configuration names another: which
     *                                     one was meant cannot be guessed
     */
    static InboxSettings read(Function<String, Optional<String>> source, InboxTable produced) {
        InboxTable configured = value(source, InboxSettings.TABLE).map(name -> {
            try {
                return InboxTable.of(name);
            } catch (IllegalArgumentException e) {
                throw new InboxConfigurationException(InboxSettings.TABLE + "=" + name + " is not valid: "
                        + e.getMessage());
            }
        }).orElse(null);
        if (produced != null && configured != null && !produced.equals(configured)) {
            throw new InboxConfigurationException(InboxSettings.TABLE + "=" + configured + " names another table "
                    + "than the InboxTable the application produces (" + produced + "); remove one of them");
        }
        InboxTable table = produced != null ? produced : configured != null ? configured : InboxTable.DEFAULT;
        boolean tableCheck = value(source, InboxSettings.TABLE_CHECK).map(SettingsReader::bool).orElse(true);
        String key = value(source, InboxSettings.KEY).orElse("");
        int scopeBytes = value(source, InboxSettings.SCOPE_BYTES)
                .map(v -> integer(InboxSettings.SCOPE_BYTES, v))
                .orElse(InboxSettings.DEFAULTS.maxScopeBytes());
        int messageIdBytes = value(source, InboxSettings.MESSAGE_ID_BYTES)
                .map(v -> integer(InboxSettings.MESSAGE_ID_BYTES, v))
                .orElse(InboxSettings.DEFAULTS.maxMessageIdBytes());
        Duration preparedAge = value(source, InboxSettings.PREPARED_TRANSACTION_AGE)
                .map(v -> duration(InboxSettings.PREPARED_TRANSACTION_AGE, v))
                .orElse(InboxSettings.DEFAULTS.preparedTransactionAge());
        Duration claimWait = value(source, InboxSettings.CLAIM_MAX_WAIT)
                .map(v -> duration(InboxSettings.CLAIM_MAX_WAIT, v))
                .orElse(InboxSettings.DEFAULT_CLAIM_MAX_WAIT);
        return new InboxSettings(table, tableCheck, key, scopeBytes, messageIdBytes, preparedAge, claimWait);
    }

    /** A property's value from the source, trimmed; empty when it is not set or blank. */
    static Optional<String> value(Function<String, Optional<String>> source, String property) {
        return source.apply(property).map(String::trim).filter(v -> !v.isEmpty());
    }

    private static boolean bool(String value) {
        return switch (value.toLowerCase(Locale.ROOT)) {
            case "true" -> true;
            case "false" -> false;
            default -> throw new InboxConfigurationException(InboxSettings.TABLE_CHECK + "=" + value
                    + " is not valid: use true or false");
        };
    }

    private static Duration duration(String property, String value) {
        try {
            return Duration.parse(value);
        } catch (DateTimeParseException e) {
            throw new InboxConfigurationException(property + "=" + value
                    + " is not valid: expected an ISO-8601 duration such as PT5M or PT0.5S");
        }
    }

    private static int integer(String property, String value) {
        try {
            return Integer.parseInt(value);
        } catch (NumberFormatException e) {
            throw new InboxConfigurationException(property + "=" + value + " is not valid: expected a whole number");
        }
    }
}
