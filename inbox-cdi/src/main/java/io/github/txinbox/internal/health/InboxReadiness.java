package io.github.txinbox.internal.health;

import io.github.txinbox.InboxSettings;
import io.github.txinbox.PreparedTransaction;
import jakarta.enterprise.event.Observes;
import jakarta.persistence.PersistenceException;
import java.sql.SQLException;
import java.time.Instant;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.eclipse.microprofile.health.HealthCheck;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.HealthCheckResponseBuilder;
import org.eclipse.microprofile.health.Readiness;

/**
 * The inbox's MicroProfile Health readiness check, named {@value #NAME}: down when the database cannot be reached or
 * the inbox table is missing or unfit; up otherwise, reporting the transactions prepared in the database for longer
 * than {@link InboxSettings#PREPARED_TRANSACTION_AGE}, which hold their markers' locks until someone resolves them. Not
 * discovered: {@link io.github.txinbox.internal.binding.InboxExtension} adds it as an application-scoped bean where the
 * MicroProfile Health API is present, so that nothing else in the library depends on it. The data's names are kept
 * stable.
 */
@Readiness
public class InboxReadiness implements HealthCheck {

    /** The check's name in the health report. */
    static final String NAME = "txinbox";

    private static final Logger LOG = Logger.getLogger(InboxReadiness.class.getName());

    private final AtomicBoolean warned = new AtomicBoolean();

    /** The last failure logged at {@code WARNING}, so that a lasting one is logged once, not at every call. */
    private final AtomicReference<String> lastWarned = new AtomicReference<>();

    /**
     * The library's probe, announced by {@link io.github.txinbox.internal.startup.StartupCheck} when the application
     * starts.
     */
    private volatile HealthProbe probe;

    /**
     * Takes the library's probe when the application starts: on Payara a bean that an extension adds, as this one,
     * lives in an archive of its own that sees none of the library's beans, so it cannot inject it.
     */
    void probeReady(@Observes HealthProbe started) {
        probe = started;
    }

    @Override
    public HealthCheckResponse call() {
        HealthProbe probe = this.probe;
        if (probe == null) {
            return HealthCheckResponse.named(NAME).down().withData("error", "the application has not started").build();
        }
        InboxSettings settings = probe.settings();
        HealthCheckResponseBuilder response = HealthCheckResponse.named(NAME)
                .withData("table", settings.table().qualifiedName());
        Optional<TableVerifier.Findings> looked;
        try {
            looked = probe.look();
        } catch (RuntimeException e) {
            if (!fromTheDatabase(e)) {
                // Not an absent component environment (ComponentEnvironment answers that with an empty look): the
                // container failed to give the check its resources, which is a misconfiguration to fix.
                String error = "the inbox could not look at its database: " + ComponentEnvironment.rootMessage(e);
                if (!error.equals(lastWarned.getAndSet(error))) {
                    LOG.log(Level.WARNING, e, () -> "The inbox's readiness check reports DOWN: " + error);
                }
                return response.down().withData("checked", false).withData("error", error).build();
            }
            LOG.log(Level.FINE, "The inbox's readiness check could not reach its database", e);
            return response.down().withData("checked", true)
                    .withData("error", "the database could not be reached: " + ComponentEnvironment.rootMessage(e))
                    .build();
        }
        if (looked.isEmpty()) {
            return unchecked(response, "the server's health service calls the check outside the application's modules, "
                    + "where the inbox gets no persistence unit, and no web module of the application lent it its "
                    + "context (a library in the lib/ of an EAR without a web module)");
        }
        TableVerifier.Findings findings = looked.get();
        response.withData("checked", true);
        if (findings.tableProblem() != null) {
            response.down().withData("error", findings.tableProblem());
        } else {
            response.up();
        }
        response.withData("preparedTransactions", findings.prepared().size())
                .withData("preparedTransactionAge", settings.preparedTransactionAge().toString());
        if (!findings.prepared().isEmpty()) {
            PreparedTransaction oldest = findings.prepared().get(0);
            response.withData("oldestPreparedTransaction", oldest.gid())
                    .withData("oldestPreparedAt", oldest.prepared().toString())
                    .withData("oldestPreparedFor", oldest.age(Instant.now()).withNanos(0).toString());
        }
        return response.build();
    }

    private HealthCheckResponse unchecked(HealthCheckResponseBuilder response, String reason) {
        if (warned.compareAndSet(false, true)) {
            LOG.warning("The inbox's readiness check cannot look at its database from the server's health service ("
                    + reason + "); it reports UP with checked=false. Give the application a web module that is a bean "
                    + "archive, or call InboxRepository.verifyTable() from a check of your own in a module");
        }
        return response.up().withData("checked", false).withData("reason", reason).build();
    }

    /** Whether a failure came from the database or the JPA provider, rather than from the container's set-up. */
    private static boolean fromTheDatabase(Throwable failure) {
        for (Throwable cause = failure; cause != null; cause = cause.getCause() == cause ? null : cause.getCause()) {
            if (cause instanceof SQLException || cause instanceof PersistenceException) {
                return true;
            }
        }
        return false;
    }
}
