package io.github.txinbox.internal;

import io.github.txinbox.InboxSettings;
import io.github.txinbox.InboxTable;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.context.Dependent;
import jakarta.enterprise.inject.Instance;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Inject;

/**
 * Produces the application's {@link InboxSettings}, resolved once: on first use, or when the application starts
 * ({@link StartupCheck}), where a bad setting fails the start.
 */
@ApplicationScoped
public class Configuration {

    @Inject
    Instance<InboxTable> producedTable;

    private volatile InboxSettings settings;

    /**
     * Returns the settings, reading them on the first call.
     *
     * @return the settings
     * @throws io.github.txinbox.InboxConfigurationException when a setting is not valid, or the produced and the
     *                                                       configured table differ
     */
    @Produces
    @Dependent
    public InboxSettings settings() {
        InboxSettings read = settings;
        if (read == null) {
            ClassLoader loader = Thread.currentThread().getContextClassLoader();
            read = SettingsReader.read(Optionals.settingsSource(loader != null ? loader : getClass().getClassLoader()),
                    producedTable.isResolvable() ? producedTable.get() : null);
            settings = read;
        }
        return read;
    }
}
