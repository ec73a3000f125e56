package io.github.txinbox.internal.startup;

import io.github.txinbox.InboxConfigurationException;
import io.github.txinbox.InboxLimits;
import io.github.txinbox.InboxSettings;
import io.github.txinbox.InboxTableException;
import io.github.txinbox.internal.binding.InboxExtension;
import io.github.txinbox.internal.health.ComponentEnvironment;
import io.github.txinbox.internal.health.HealthProbe;
import io.github.txinbox.internal.health.TableVerifier;
import io.github.txinbox.internal.settings.SettingsProducer;
import io.github.txinbox.spi.ScopeOwner;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.context.Initialized;
import jakarta.enterprise.event.Event;
import jakarta.enterprise.event.Observes;
import jakarta.enterprise.inject.Any;
import jakarta.enterprise.inject.Instance;
import jakarta.inject.Inject;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Checks the library's set-up when the application starts, so that a mistake fails the deployment instead of the
 * first message: the settings (a bad value, a configured table that contradicts the produced one, an
 * {@code @Inbox} scope longer than the configured limit), then the table, which must exist with the expected columns
 * and primary key (the error shows the DDL to run). The table check is off with
 * {@value InboxSettings#TABLE_CHECK}{@code =false}, for a table that a migration creates later in the start-up. When
 * the table check itself cannot run (no database yet, say), it logs why and lets the application start.
 *
 * <p>In an EAR with the library in {@code lib/}, Payara fires the start-up event at the level of the EAR, where the
 * library's beans get no resources injected; the table is then checked when the first web module starts
 * ({@link WebStartupCheck}), which also lends that module's context to the readiness check ({@link HealthProbe}). It is
 * checked once. Whether there is a component environment here is {@link ComponentEnvironment}'s to say; a failure of
 * the container to give the check its resources that is not an absence fails the deployment.
 */
@ApplicationScoped
public class StartupCheck {

    private static final Logger LOG = Logger.getLogger(StartupCheck.class.getName());

    @Inject
    private SettingsProducer settingsProducer;

    @Inject
    @Any
    private Instance<ScopeOwner> scopeOwners;

    @Inject
    private Instance<TableVerifier> verifiers;

    @Inject
    private HealthProbe probe;

    @Inject
    private Event<HealthProbe> probeReady;

    @Inject
    private ComponentEnvironment environment;

    private final AtomicBoolean tableChecked = new AtomicBoolean();

    void onStart(@Observes @Initialized(ApplicationScoped.class) Object started) {
        // The readiness check observes this: on Payara a bean an extension adds, as it is, sees none of the library's
        // beans, and cannot inject the probe.
        probeReady.fire(probe);
        // Resolved now for their checks: a bad value, or a configured table that contradicts the produced one, fails
        // the start.
        InboxSettings settings = settingsProducer.settings();
        for (Map.Entry<String, String> scope : InboxExtension.scopes(scopeOwners).entrySet()) {
            try {
                InboxLimits.requireKey("scope", scope.getKey(), settings.maxScopeBytes());
            } catch (IllegalArgumentException e) {
                throw new InboxConfigurationException(InboxSettings.SCOPE_BYTES + "=" + settings.maxScopeBytes()
                        + " is too small for the scope of " + scope.getValue() + ": " + e.getMessage());
            }
        }
        checkTable();
    }

    /**
     * Checks the table ({@link #checkTable()}) and lends the readiness check this web module's context
     * ({@link ComponentEnvironment#keepModuleContext()}). Called by {@link WebStartupCheck} in the module's
     * environment.
     *
     * @throws InboxTableException   when the table is missing or differs
     * @throws IllegalStateException when the container fails to give the check its resources, for another reason than
     *                               an absent component environment ({@link ComponentEnvironment})
     */
    public void webModuleStarted() {
        checkTable();
        environment.keepModuleContext();
    }

    /**
     * Checks the table, unless it was checked before or the check is off; does nothing where there is no component
     * environment for the library ({@link ComponentEnvironment}; it is then left to the next call, from
     * {@link WebStartupCheck}).
     *
     * @throws InboxTableException   when the table is missing or differs
     * @throws IllegalStateException when the container fails to give the check its resources, for another reason than
     *                               an absent component environment
     */
    public void checkTable() {
        if (tableChecked.get()) {
            return;
        }
        InboxSettings settings = settingsProducer.settings();
        if (!settings.tableCheck()) {
            tableChecked.set(true);
            LOG.info(() -> "The inbox table is not checked at start-up: " + InboxSettings.TABLE_CHECK + "=false");
            return;
        }
        try (Instance.Handle<TableVerifier> handle = verifiers.getHandle()) {
            TableVerifier verifier = ComponentEnvironment.verifier(handle);
            if (verifier == null) {
                LOG.fine("No component environment here; the inbox table is checked when a web module starts");
                return;
            }
            if (tableChecked.compareAndSet(false, true)) {
                check(verifier, settings);
            }
        }
    }

    private static void check(TableVerifier verifier, InboxSettings settings) {
        TableVerifier.Findings findings;
        try {
            findings = verifier.look(settings.preparedTransactionAge());
        } catch (RuntimeException e) {
            LOG.log(Level.WARNING, e, () -> "Could not check the inbox table at start-up; the first message will "
                    + "tell. Set " + InboxSettings.TABLE_CHECK + "=false to skip the check");
            return;
        }
        if (findings.unfit() != null) {
            throw findings.unfit();
        }
        LOG.info(() -> "The inbox table " + verifier.table() + " was checked at start-up and fits");
    }
}
