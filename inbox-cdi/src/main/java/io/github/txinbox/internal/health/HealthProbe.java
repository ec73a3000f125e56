package io.github.txinbox.internal.health;

import io.github.txinbox.InboxSettings;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.Optional;

/**
 * Looks at the inbox's database for {@link InboxReadiness}: whether the table fits, and which transactions have stayed
 * prepared longer than the configured age. It needs no MicroProfile API, so it is an ordinary bean of the library; the
 * readiness check, which an extension adds and which therefore sees none of the library's beans on Payara, receives it
 * as the event {@link io.github.txinbox.internal.startup.StartupCheck} fires when the application starts. Where the
 * look can run from, and what happens where it cannot, is {@link ComponentEnvironment}'s to say.
 */
@ApplicationScoped
public class HealthProbe {

    @Inject
    InboxSettings settings;

    @Inject
    ComponentEnvironment environment;

    /**
     * Returns the settings in effect, without a transaction.
     *
     * @return the settings
     */
    public InboxSettings settings() {
        return settings;
    }

    /**
     * Checks the table and lists the old prepared transactions, in a transaction of its own
     * ({@link ComponentEnvironment#look(java.time.Duration)}).
     *
     * @return the findings; empty when neither here nor through a web module is there a component environment
     * @throws RuntimeException when the database cannot be reached or a query fails (the transaction rolls back), when
     *                          the container fails to give the library its resources, or when the kept module's
     *                          context can no longer be entered (the application is stopping)
     */
    public Optional<TableVerifier.Findings> look() {
        return environment.look(settings.preparedTransactionAge());
    }
}
