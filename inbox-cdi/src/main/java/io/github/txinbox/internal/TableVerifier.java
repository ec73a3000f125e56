package io.github.txinbox.internal;

import io.github.txinbox.InboxRepository;
import jakarta.annotation.Resource;
import jakarta.enterprise.context.Dependent;
import jakarta.inject.Inject;
import jakarta.transaction.TransactionSynchronizationRegistry;
import jakarta.transaction.Transactional;

/**
 * Runs {@link InboxRepository#verifyTable()} in a transaction of its own, for {@link StartupCheck}, which creates one
 * for each check, so that it and its repository get their resources from the component environment current at that
 * moment.
 */
@Dependent
public class TableVerifier {

    @Inject
    private InboxRepository repository;

    @Resource(lookup = "java:comp/TransactionSynchronizationRegistry")
    private TransactionSynchronizationRegistry transactions;

    /**
     * Tells whether the container injected resources into this instance: not where it was created outside every
     * module's environment, as Payara creates the beans of an EAR's {@code lib/} for the start-up event it fires at
     * the level of the EAR.
     *
     * @return whether the table can be checked from here
     */
    public boolean injected() {
        return transactions != null;
    }

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
