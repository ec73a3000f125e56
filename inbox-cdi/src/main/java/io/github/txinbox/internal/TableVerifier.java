package io.github.txinbox.internal;

import io.github.txinbox.InboxRepository;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.transaction.Transactional;

/** Runs {@link InboxRepository#verifyTable()} in a transaction of its own, for {@link StartupCheck}. */
@ApplicationScoped
public class TableVerifier {

    @Inject
    private InboxRepository repository;

    /** Verifies the table, in a new transaction. */
    @Transactional(Transactional.TxType.REQUIRES_NEW)
    public void verify() {
        repository.verifyTable();
    }

    /**
     * Names the table verified.
     *
     * @return the table's quoted name
     */
    public String table() {
        return repository.table().quotedName();
    }
}
