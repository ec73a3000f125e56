package io.github.txinbox.internal.health;

import io.github.txinbox.InboxRepository;
import io.github.txinbox.InboxTableException;
import io.github.txinbox.PreparedTransaction;
import io.github.txinbox.spi.TableCheck;
import jakarta.annotation.Resource;
import jakarta.enterprise.context.Dependent;
import jakarta.enterprise.inject.Any;
import jakarta.enterprise.inject.Instance;
import jakarta.inject.Inject;
import jakarta.transaction.TransactionSynchronizationRegistry;
import jakarta.transaction.Transactional;
import java.time.Duration;
import java.util.List;

/**
 * Looks at the inbox's database in a transaction of its own, the one look of the start-up check
 * ({@link io.github.txinbox.internal.startup.StartupCheck}) and the readiness check ({@link HealthProbe}): whether the
 * table fits, and which transactions have stayed prepared. {@link ComponentEnvironment} creates one for each look, so
 * that it and its repository get their resources from the component environment current at that moment.
 */
@Dependent
public class TableVerifier {

    /**
     * What a look found.
     *
     * @param unfit    why the table will not do, or {@code null} when it fits
     * @param prepared the transactions prepared for longer than the age asked, oldest first
     */
    public record Findings(InboxTableException unfit, List<PreparedTransaction> prepared) {

        /** What makes the table unfit, or {@code null} when it fits. */
        String tableProblem() {
            return unfit == null ? null : unfit.problem();
        }
    }

    @Inject
    private InboxRepository repository;

    /** What other modules need of the table (inbox-http's response columns). */
    @Inject
    @Any
    private Instance<TableCheck> checks;

    @Resource(lookup = "java:comp/TransactionSynchronizationRegistry")
    private TransactionSynchronizationRegistry transactions;

    /**
     * Whether the container injected this verifier its resources: not where it creates the library's beans outside
     * every module's environment ({@link ComponentEnvironment}, the one judge of that).
     */
    boolean injected() {
        return transactions != null;
    }

    /**
     * Checks the table (with what other modules need of it, {@link TableCheck}) and lists
     * the transactions prepared for longer than the given age, in a new transaction.
     *
     * @param preparedAge how long a transaction must have been prepared to be listed
     * @return the findings
     * @throws RuntimeException when the database cannot be reached or a query fails; the transaction rolls back
     */
    @Transactional(Transactional.TxType.REQUIRES_NEW)
    public Findings look(Duration preparedAge) {
        InboxTableException unfit = null;
        try {
            repository.verifyTable();
            for (TableCheck check : checks) {
                check.check();
            }
        } catch (InboxTableException e) {
            unfit = e;
        }
        return new Findings(unfit, repository.preparedTransactions(preparedAge));
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
