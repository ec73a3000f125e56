package io.github.txinbox.it.portable;

import io.github.txinbox.InboxEvent;
import io.github.txinbox.it.app.TestDatabase;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;

/**
 * Records every decision of the inbox, with how long it took, in the table {@code inbox_decision}, on a connection of
 * its own and committed at once, so that the tests see the attempts that roll back too, and can wait for a number of
 * deliveries without asking the broker.
 */
@ApplicationScoped
public class DecisionLog {

    void record(@Observes InboxEvent event) {
        TestDatabase.update("INSERT INTO " + TestDatabase.SCHEMA
                + ".inbox_decision (scope, message_id, outcome, reason, millis) VALUES (?, ?, ?, ?, ?)",
                event.scope(), event.messageId(), event.outcome().name(), event.reason(), event.duration().toMillis());
    }
}
