package io.github.txinbox.internal;

import io.github.txinbox.InboxConfigurationException;
import io.github.txinbox.InboxTableException;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.context.Initialized;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import java.util.Map;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Checks the library's set-up when the application starts, so that a mistake fails the deployment instead of the
 * first message: the settings (a bad value, a configured table that contradicts the produced one, a scope named in
 * {@code @Inbox} longer than the configured limit), then the table, which must exist with the expected columns and
 * primary key (the error shows the DDL to run). The table check is off with
 * {@value Settings#TABLE_CHECK}{@code =false}, for a table that a migration creates later in the start-up. When the table check itself cannot run (no database
 * yet, say), it logs why and lets the application start.
 */
@ApplicationScoped
public class StartupCheck {

    private static final Logger LOG = Logger.getLogger(StartupCheck.class.getName());

    @Inject
    private Configuration configuration;

    @Inject
    private InboxExtension extension;

    @Inject
    private TableVerifier verifier;

    void onStart(@Observes @Initialized(ApplicationScoped.class) Object started) {
        Settings settings = configuration.settings();
        // Resolved now for its checks: a configured table that contradicts the produced one fails the start.
        configuration.table();
        for (Map.Entry<String, String> scope : extension.namedScopes().entrySet()) {
            try {
                Keys.require("scope", scope.getKey(), settings.maxScopeBytes());
            } catch (IllegalArgumentException e) {
                throw new InboxConfigurationException(Settings.SCOPE_BYTES + "=" + settings.maxScopeBytes()
                        + " is too small for the scope of " + scope.getValue() + ": " + e.getMessage());
            }
        }
        if (!settings.tableCheck()) {
            LOG.info(() -> "The inbox table is not checked at start-up: " + Settings.TABLE_CHECK + "=false");
            return;
        }
        try {
            verifier.verify();
        } catch (RuntimeException e) {
            InboxTableException unfit = unfitTable(e);
            if (unfit != null) {
                throw unfit;
            }
            LOG.log(Level.WARNING, e, () -> "Could not check the inbox table at start-up; the first message will "
                    + "tell. Set " + Settings.TABLE_CHECK + "=false to skip the check");
            return;
        }
        LOG.fine(() -> "The inbox table " + verifier.table() + " is fit");
    }

    private static InboxTableException unfitTable(Throwable e) {
        for (Throwable cause = e; cause != null; cause = cause.getCause()) {
            if (cause instanceof InboxTableException unfit) {
                return unfit;
            }
        }
        return null;
    }
}
