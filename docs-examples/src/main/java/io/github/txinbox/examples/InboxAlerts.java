package io.github.txinbox.examples;

import io.github.txinbox.InboxEvent;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.util.logging.Level;
import java.util.logging.Logger;

// tag::alerts[]
@ApplicationScoped
public class InboxAlerts {

    private static final Logger LOG = Logger.getLogger(InboxAlerts.class.getName());

    // Called once the transaction has ended, with what it ended with.
    void ended(@Observes InboxEvent event) {
        switch (event.outcome()) {
            case FAILURE, MISSING_ID, ROLLED_BACK -> LOG.log(Level.WARNING, "{0} did not commit {1} in scope {2}: {3}",
                    new Object[] {event.method(), event.messageId(), event.scope(), event.reason()});
            default -> {
                // PROCESSED, SKIPPED and DUPLICATE committed; RETRY and HELD come again as asked.
            }
        }
    }
}
// end::alerts[]
