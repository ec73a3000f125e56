package io.github.txinbox.internal;

import io.github.txinbox.InboxRepository;
import io.github.txinbox.InboxTableException;
import jakarta.annotation.Resource;
import jakarta.enterprise.context.Dependent;
import jakarta.inject.Inject;
import jakarta.transaction.TransactionSynchronizationRegistry;
import jakarta.transaction.Transactional;
import java.time.Duration;

/**
 * Looks at the inbox's database in a transaction of its own, for {@link StartupCheck} and {@link HealthProbe}, which
 * create one for each look, so that it and its repository get their resources from the component environment current
 * at that moment.
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
     * the level of the EAR, and for the EAR's health checks.
     *
     * @return whether the database can be looked at from here
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
     * Checks the table and lists the transactions prepared for longer than the given age, in a new transaction.
     *
     * @param preparedAge how long a transaction must have been prepared to be listed
     * @return the findings
     * @throws RuntimeException when the database cannot be reached or a query fails; the transaction rolls back
     */
    @Transactional(Transactional.TxType.REQUIRES_NEW)
    public HealthProbe.Findings look(Duration preparedAge) {
        String problem = null;
        try {
            repository.verifyTable();
        } catch (InboxTableException e) {
            problem = e.problem();
        }
        return new HealthProbe.Findings(problem, repository.preparedTransactions(preparedAge));
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
