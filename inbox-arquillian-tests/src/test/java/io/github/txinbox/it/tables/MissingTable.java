package io.github.txinbox.it.tables;

import io.github.txinbox.InboxTable;
import io.github.txinbox.it.app.TestDatabase;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Produces;

/** Configures an inbox table that does not exist. */
@ApplicationScoped
public class MissingTable {

    /** The table's name. */
    public static final String NAME = TestDatabase.SCHEMA + ".missing_inbox";

    @Produces
    InboxTable table() {
        return InboxTable.of(NAME);
    }
}
