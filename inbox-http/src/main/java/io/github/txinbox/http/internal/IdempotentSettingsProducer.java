package io.github.txinbox.http.internal;

import io.github.txinbox.InboxConfigurationException;
import io.github.txinbox.http.IdempotentSettings;
import io.github.txinbox.spi.SettingSource;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.context.Dependent;
import jakarta.enterprise.context.Initialized;
import jakarta.enterprise.event.Observes;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Inject;
import java.util.Optional;
import java.util.function.Function;

/**
 * Produces the application's {@link IdempotentSettings}, read once from the core's {@link SettingSource}: at the
 * application's start, so that a bad value fails it, or at first use.
 */
@ApplicationScoped
public class IdempotentSettingsProducer {

    @Inject
    SettingSource source;

    private volatile IdempotentSettings settings;

    void onStart(@Observes @Initialized(ApplicationScoped.class) Object started) {
        settings();
    }

    /**
     * Returns the settings, reading them on the first call.
     *
     * @return the settings
     * @throws InboxConfigurationException when a setting is not valid
     */
    @Produces
    @Dependent
    public IdempotentSettings settings() {
        IdempotentSettings read = settings;
        if (read == null) {
            read = read(source::value);
            settings = read;
        }
        return read;
    }

    /**
     * Reads the settings, the default for each property that is not set.
     *
     * @param source a property's value, trimmed; empty when it is not set
     * @return the settings
     * @throws InboxConfigurationException when a value is not valid, naming the property and the value
     */
    static IdempotentSettings read(Function<String, Optional<String>> source) {
        Optional<String> bytes = source.apply(IdempotentSettings.MAX_RESPONSE_BYTES);
        if (bytes.isEmpty()) {
            return IdempotentSettings.DEFAULTS;
        }
        try {
            return new IdempotentSettings(Integer.parseInt(bytes.get()));
        } catch (NumberFormatException e) {
            throw new InboxConfigurationException(IdempotentSettings.MAX_RESPONSE_BYTES + "=" + bytes.get()
                    + " is not valid: expected a whole number");
        }
    }
}
