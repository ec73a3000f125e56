package io.github.txinbox.it.tables;

import io.github.txinbox.InboxTable;
import io.github.txinbox.it.app.TestDatabase;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Produces;

/** Configures an inbox table that exists without a primary key (the test creates it). */
@ApplicationScoped
public class UnfitTable {

    /** The table's name. */
    public static final String NAME = TestDatabase.SCHEMA + ".unfit_inbox";

    @Produces
    InboxTable table() {
        return InboxTable.of(NAME);
    }
}
