package io.github.txinbox.internal.health;

import jakarta.enterprise.concurrent.ContextService;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Instance;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.Optional;
import java.util.function.Function;
import java.util.logging.Level;
import java.util.logging.Logger;
import javax.naming.InitialContext;
import javax.naming.NameNotFoundException;
import javax.naming.NamingException;

/**
 * Where the library can reach its database from: the one home of "no component environment here". The start-up check
 * ({@link io.github.txinbox.internal.startup.StartupCheck}) and the readiness check ({@link HealthProbe}) ask it for a
 * look; it answers from the component environment current on the calling thread, else from the web module whose context
 * it borrowed, else not at all.
 *
 * <p>There is no component environment for the library where the container creates its beans with nothing injected
 * (Payara creates the beans of an EAR's {@code lib/} outside every module for the start-up event it fires at the
 * level of the EAR, and for the EAR's health checks), or fails to create them because the names they look up are not
 * bound ({@link NameNotFoundException} in the cause; Payara Micro calls a WAR's health checks so). Any other failure
 * to create them is a misconfiguration, not an absence: it is thrown with its cause, so that the start-up check fails
 * the deployment and the readiness check reports {@code DOWN} with the reason and logs it at {@code WARNING}.
 *
 * <p>In an EAR, the first web module that starts lends its context ({@link #keepModuleContext()}, called by
 * {@link io.github.txinbox.internal.startup.WebStartupCheck} in the module's environment): the look is kept as a
 * contextual proxy of the module's {@code java:comp/DefaultContextService} (Jakarta Concurrency), so that a call from
 * anywhere runs in that module's environment, with the persistence unit it sees. A look from the current environment
 * wins over the borrowed one.
 */
@ApplicationScoped
public class ComponentEnvironment {

    /** The default context service of the module where it is looked up (Jakarta Concurrency). */
    static final String DEFAULT_CONTEXT_SERVICE = "java:comp/DefaultContextService";

    private static final Logger LOG = Logger.getLogger(ComponentEnvironment.class.getName());

    @Inject
    Instance<TableVerifier> verifiers;

    /** Looks from a web module's environment, whatever thread calls it; {@code null} until one lent its context. */
    private volatile Function<Duration, Optional<TableVerifier.Findings>> inModule;

    /** Why the web module's context could not be borrowed; {@code null} when nothing failed. */
    private volatile String borrowFailure;

    /**
     * Checks the table and lists the transactions prepared for longer than the given age, in a transaction of its own:
     * from the component environment current here, else from that of the web module whose context is kept.
     *
     * @param preparedAge how long a transaction must have been prepared to be listed
     * @return the findings; empty when neither here nor through a web module is there a component environment
     * @throws IllegalStateException when the container fails to give the library its resources for another reason than
     *                               an absent environment, or the web module's context could not be borrowed
     * @throws RuntimeException      when the database cannot be reached or a query fails (the transaction rolls
     *                               back), or when the kept module's context can no longer be entered (the
     *                               application is stopping)
     */
    public Optional<TableVerifier.Findings> look(Duration preparedAge) {
        Optional<TableVerifier.Findings> here = lookHere(preparedAge);
        if (here.isPresent()) {
            return here;
        }
        Function<Duration, Optional<TableVerifier.Findings>> module = inModule;
        if (module != null) {
            return module.apply(preparedAge);
        }
        String failure = borrowFailure;
        if (failure != null) {
            throw new IllegalStateException(failure);
        }
        return Optional.empty();
    }

    private Optional<TableVerifier.Findings> lookHere(Duration preparedAge) {
        try (Instance.Handle<TableVerifier> handle = verifiers.getHandle()) {
            TableVerifier verifier = verifier(handle);
            return verifier == null ? Optional.empty() : Optional.of(verifier.look(preparedAge));
        }
    }

    /**
     * Keeps the context of the web module starting now, unless one is kept already or the module's environment gives
     * the library no resources. A module without {@value #DEFAULT_CONTEXT_SERVICE} (or a server without Jakarta
     * Concurrency) lends nothing; any other failure is logged at {@code WARNING} and reported by the next
     * {@link #look(Duration)} that finds no environment.
     */
    public void keepModuleContext() {
        if (inModule != null || !reachableHere()) {
            return;
        }
        try {
            ContextService contexts = InitialContext.doLookup(DEFAULT_CONTEXT_SERVICE);
            Function<Duration, Optional<TableVerifier.Findings>> lookHere = this::lookHere;
            @SuppressWarnings("unchecked")
            Function<Duration, Optional<TableVerifier.Findings>> proxy =
                    contexts.createContextualProxy(lookHere, Function.class);
            inModule = proxy;
            borrowFailure = null;
        } catch (NameNotFoundException | LinkageError e) {
            LOG.log(Level.FINE, e, () -> "No " + DEFAULT_CONTEXT_SERVICE + " in this web module: the readiness check "
                    + "looks only where the server calls it");
        } catch (NamingException | RuntimeException e) {
            String failure = "The inbox could not borrow the web module's context through " + DEFAULT_CONTEXT_SERVICE
                    + ": " + rootMessage(e);
            LOG.log(Level.WARNING, failure, e);
            borrowFailure = failure;
        }
    }

    private boolean reachableHere() {
        try (Instance.Handle<TableVerifier> handle = verifiers.getHandle()) {
            return verifier(handle) != null;
        }
    }

    /**
     * The handle's verifier, or {@code null} where there is no component environment for the library: the container
     * injected it nothing, or failed to because the names it looks up are not bound here. The start-up check's test,
     * and that of every look.
     *
     * @param handle a handle on a new verifier
     * @return the verifier, or {@code null} where there is no component environment for the inbox
     * @throws IllegalStateException when creating it failed otherwise, with the cause
     */
    public static TableVerifier verifier(Instance.Handle<TableVerifier> handle) {
        TableVerifier verifier;
        try {
            verifier = handle.get();
        } catch (RuntimeException e) {
            if (notBound(e)) {
                LOG.log(Level.FINEST, "No component environment for the inbox here: a name it looks up is not bound", e);
                return null;
            }
            throw new IllegalStateException("The container could not give the inbox its persistence unit and "
                    + "transaction registry: " + rootMessage(e), e);
        }
        return verifier.injected() ? verifier : null;
    }

    private static boolean notBound(Throwable failure) {
        for (Throwable cause = failure; cause != null; cause = cause.getCause() == cause ? null : cause.getCause()) {
            if (cause instanceof NameNotFoundException) {
                return true;
            }
        }
        return false;
    }

    /** The innermost cause's class and message. */
    static String rootMessage(Throwable failure) {
        Throwable root = failure;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        return root.getClass().getName() + ": " + root.getMessage();
    }
}
