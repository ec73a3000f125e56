package io.github.txinbox.internal;

import io.github.txinbox.InboxTableException;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.context.Initialized;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Checks the inbox table when the application starts, so that a missing or unfit table fails the deployment, with
 * the DDL to run, instead of the first message. Off with the system property {@value #SWITCH}{@code =false}, for a
 * table that a migration creates later in the start-up. When the check itself cannot run (no database yet, say), it
 * logs why and lets the application start.
 */
@ApplicationScoped
public class StartupTableCheck {

    /** The system property that turns the check off when {@code false}. */
    public static final String SWITCH = "txinbox.table.check";

    private static final Logger LOG = Logger.getLogger(StartupTableCheck.class.getName());

    @Inject
    private TableVerifier verifier;

    void onStart(@Observes @Initialized(ApplicationScoped.class) Object started) {
        if ("false".equalsIgnoreCase(System.getProperty(SWITCH, "true").trim())) {
            LOG.info(() -> "The inbox table is not checked at start-up: " + SWITCH + "=false");
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
                    + "tell. Set " + SWITCH + "=false to skip the check");
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
