package io.github.txinbox.internal;

import io.github.txinbox.InboxTable;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Instance;
import jakarta.inject.Inject;

/**
 * The application's {@link Settings} and inbox table, resolved once: on first use, or when the application starts
 * ({@link StartupCheck}), where a bad setting fails the start.
 */
@ApplicationScoped
public class Configuration {

    @Inject
    Instance<InboxTable> producedTable;

    private volatile Settings settings;
    private volatile InboxTable table;

    /**
     * Returns the settings, reading them on the first call.
     *
     * @return the settings
     * @throws io.github.txinbox.InboxConfigurationException when a setting is not valid
     */
    public Settings settings() {
        Settings read = settings;
        if (read == null) {
            ClassLoader loader = Thread.currentThread().getContextClassLoader();
            read = Settings.read(Optionals.settingsSource(loader != null ? loader : getClass().getClassLoader()));
            settings = read;
        }
        return read;
    }

    /**
     * Returns the inbox table: the {@link InboxTable} the application produces, else the configured one, else the
     * default.
     *
     * @return the table
     * @throws io.github.txinbox.InboxConfigurationException when a setting is not valid, or the produced and the
     *                                                       configured table differ
     */
    public InboxTable table() {
        InboxTable resolved = table;
        if (resolved == null) {
            resolved = settings().tableGiven(producedTable.isResolvable() ? producedTable.get() : null);
            table = resolved;
        }
        return resolved;
    }
}
