package io.github.txinbox.internal;

import io.github.txinbox.InboxRepository;
import io.github.txinbox.InboxSettings;
import io.github.txinbox.InboxTableException;
import io.github.txinbox.PreparedTransaction;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.transaction.Transactional;
import java.util.List;

/**
 * Looks at the inbox's database for {@link InboxReadiness}, in a transaction of its own: whether the table fits, and
 * which transactions have stayed prepared longer than the configured age. It needs no MicroProfile API, so it is an
 * ordinary bean of the library; the readiness check, which an extension adds and which therefore sees none of the
 * library's beans on Payara, finds it through {@link InboxExtension#healthProbe()}.
 */
@ApplicationScoped
public class HealthProbe {

    /**
     * What the probe found.
     *
     * @param tableProblem what makes the table unfit, or {@code null} when it fits
     * @param prepared     the transactions prepared for longer than the configured age, oldest first
     */
    record Findings(String tableProblem, List<PreparedTransaction> prepared) {
    }

    @Inject
    InboxRepository repository;

    @Inject
    InboxSettings settings;

    @Inject
    TableVerifier verifier;

    /**
     * Returns the settings in effect, without a transaction.
     *
     * @return the settings
     */
    public InboxSettings settings() {
        return settings;
    }

    /**
     * Whether the container gave the probe its resources where it created it, on the first call of the readiness
     * check: not for a library in an EAR's {@code lib/}, whose checks Payara calls outside the EAR's modules.
     *
     * @return whether the probe has its resources
     */
    public boolean injected() {
        return verifier.injected();
    }

    /**
     * Checks the table and lists the old prepared transactions.
     *
     * @return the findings
     * @throws RuntimeException when the database cannot be reached or a query fails; the transaction rolls back
     */
    @Transactional(Transactional.TxType.REQUIRES_NEW)
    public Findings look() {
        String problem = null;
        try {
            repository.verifyTable();
        } catch (InboxTableException e) {
            problem = e.problem();
        }
        return new Findings(problem, repository.preparedTransactions(settings.preparedTransactionAge()));
    }
}
