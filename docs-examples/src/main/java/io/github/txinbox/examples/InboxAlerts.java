package io.github.txinbox.examples;

import io.github.txinbox.InboxEvent;
import io.github.txinbox.InboxOutcome;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.enterprise.event.TransactionPhase;
import java.util.logging.Level;
import java.util.logging.Logger;

// tag::alerts[]
@ApplicationScoped
public class InboxAlerts {

    private static final Logger LOG = Logger.getLogger(InboxAlerts.class.getName());

    // Called once the transaction has rolled back (at once, for an outcome that marked it for rollback).
    void rolledBack(@Observes(during = TransactionPhase.AFTER_FAILURE) InboxEvent event) {
        if (event.outcome() == InboxOutcome.FAILURE || event.outcome() == InboxOutcome.MISSING_ID) {
            LOG.log(Level.WARNING, "{0} failed on {1} in scope {2}: {3}",
                    new Object[] {event.method(), event.messageId(), event.scope(), event.reason()});
        }
    }
}
// end::alerts[]
