package io.github.txinbox.internal;

import io.github.txinbox.InboxSettings;
import jakarta.enterprise.concurrent.ContextService;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Instance;
import jakarta.inject.Inject;
import java.util.Optional;
import java.util.function.Supplier;
import java.util.logging.Level;
import java.util.logging.Logger;
import javax.naming.InitialContext;
import javax.naming.NamingException;

/**
 * Looks at the inbox's database for {@link InboxReadiness}: whether the table fits, and which transactions have stayed
 * prepared longer than the configured age. It needs no MicroProfile API, so it is an ordinary bean of the library; the
 * readiness check, which an extension adds and which therefore sees none of the library's beans on Payara, receives
 * it as the event {@link StartupCheck} fires when the application starts.
 *
 * <p>Each look creates a {@link TableVerifier}, which gets the persistence unit of the component environment current
 * where the check is called. Where there is none that holds the library's names (Payara calls the checks of an EAR
 * outside its modules, where a library in the EAR's {@code lib/} gets nothing injected, and Payara Micro those of a
 * WAR where the WAR's names are not bound), the probe looks from the environment of the first web module that
 * started: {@link WebStartupCheck} hands it that module's context, which the probe keeps as a contextual proxy of
 * the module's default {@link ContextService}.
 */
@ApplicationScoped
public class HealthProbe {

    /** The default context service of the module where it is looked up (Jakarta Concurrency). */
    static final String DEFAULT_CONTEXT_SERVICE = "java:comp/DefaultContextService";

    private static final Logger LOG = Logger.getLogger(HealthProbe.class.getName());

    @Inject
    InboxSettings settings;

    @Inject
    Instance<TableVerifier> verifiers;

    /** Looks from a web module's environment, whatever thread calls it; {@code null} until a web module started. */
    private volatile Supplier<Optional<TableVerifier.Findings>> inModule;

    /**
     * Returns the settings in effect, without a transaction.
     *
     * @return the settings
     */
    public InboxSettings settings() {
        return settings;
    }

    /**
     * Checks the table and lists the old prepared transactions, in a transaction of its own: from the component
     * environment current here, else from that of the web module whose context the probe keeps.
     *
     * @return the findings; empty when neither here nor through a web module is there a component environment
     * @throws RuntimeException when the database cannot be reached or a query fails (the transaction rolls back), or
     *                          when the kept module's context can no longer be entered (the application is stopping)
     */
    public Optional<TableVerifier.Findings> look() {
        Optional<TableVerifier.Findings> here = lookHere();
        if (here.isPresent()) {
            return here;
        }
        Supplier<Optional<TableVerifier.Findings>> module = inModule;
        return module == null ? Optional.empty() : module.get();
    }

    /**
     * Keeps the context of the web module starting now, unless one is kept already or the module's environment gives
     * the library no resources. Called by {@link WebStartupCheck} in the module's environment.
     */
    public void keepModuleContext() {
        if (inModule != null || !injectedHere()) {
            return;
        }
        try {
            ContextService contexts = InitialContext.doLookup(DEFAULT_CONTEXT_SERVICE);
            Supplier<Optional<TableVerifier.Findings>> lookHere = this::lookHere;
            @SuppressWarnings("unchecked")
            Supplier<Optional<TableVerifier.Findings>> proxy = contexts.createContextualProxy(lookHere, Supplier.class);
            inModule = proxy;
        } catch (NamingException | RuntimeException | LinkageError e) {
            LOG.log(Level.FINE, e, () -> "No " + DEFAULT_CONTEXT_SERVICE + " in this web module: the readiness check "
                    + "looks only where the server calls it");
        }
    }

    private Optional<TableVerifier.Findings> lookHere() {
        try (Instance.Handle<TableVerifier> handle = verifiers.getHandle()) {
            TableVerifier verifier = TableVerifier.inEnvironment(handle);
            return verifier == null ? Optional.empty() : Optional.of(verifier.look(settings.preparedTransactionAge()));
        }
    }

    private boolean injectedHere() {
        try (Instance.Handle<TableVerifier> handle = verifiers.getHandle()) {
            return TableVerifier.inEnvironment(handle) != null;
        }
    }
}
