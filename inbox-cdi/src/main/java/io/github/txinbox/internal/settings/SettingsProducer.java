package io.github.txinbox.internal.settings;

import io.github.txinbox.InboxConfigurationException;
import io.github.txinbox.InboxSettings;
import io.github.txinbox.InboxTable;
import io.github.txinbox.spi.SettingSource;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.context.Dependent;
import jakarta.enterprise.inject.Instance;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Inject;
import java.util.Optional;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * Produces the application's {@link InboxSettings}, resolved once: on first use, or when the application starts
 * ({@link io.github.txinbox.internal.startup.StartupCheck}), where a bad setting fails the start. It is also the
 * {@link SettingSource} other modules read their own settings from.
 */
@ApplicationScoped
public class SettingsProducer implements SettingSource {

    @Inject
    Instance<InboxTable> producedTable;

    private volatile InboxSettings settings;

    private volatile Function<String, Optional<String>> source;

    /**
     * Returns the settings, reading them on the first call.
     *
     * @return the settings
     * @throws InboxConfigurationException when a setting is not valid, several beans produce the table, or the
     *                                      produced and the configured table differ
     */
    @Produces
    @Dependent
    public InboxSettings settings() {
        InboxSettings read = settings;
        if (read == null) {
            read = SettingsReader.read(source(), producedTable());
            settings = read;
        }
        return read;
    }

    @Override
    public Optional<String> value(String property) {
        return SettingsReader.value(source(), property);
    }

    /** Where the settings come from, found at the first read from the application's class loader. */
    private Function<String, Optional<String>> source() {
        Function<String, Optional<String>> found = source;
        if (found == null) {
            ClassLoader loader = Thread.currentThread().getContextClassLoader();
            found = MicroProfileApis.settingsSource(loader != null ? loader : getClass().getClassLoader());
            source = found;
        }
        return found;
    }

    /** The table a bean of the application produces, if one does; several producers are a mistake, not a default. */
    private InboxTable producedTable() {
        if (producedTable.isAmbiguous()) {
            String producers = producedTable.handlesStream().map(handle -> handle.getBean().getBeanClass().getName())
                    .sorted().collect(Collectors.joining(", "));
            throw new InboxConfigurationException("Several beans produce the InboxTable (" + producers
                    + "); keep one, or produce none and name the table with " + InboxSettings.TABLE);
        }
        return producedTable.isResolvable() ? producedTable.get() : null;
    }
}
