package io.github.txinbox.internal;

import io.github.txinbox.InboxSettings;
import io.github.txinbox.PreparedTransaction;
import jakarta.inject.Inject;
import java.time.Instant;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.eclipse.microprofile.health.HealthCheck;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.HealthCheckResponseBuilder;
import org.eclipse.microprofile.health.Readiness;

/**
 * The inbox's MicroProfile Health readiness check, named {@value #NAME}: down when the database cannot be reached or
 * the inbox table is missing or unfit; up otherwise, reporting the transactions prepared in the database for longer
 * than {@link InboxSettings#PREPARED_TRANSACTION_AGE}, which hold their markers' locks until someone resolves them.
 * Not discovered: {@link InboxExtension} adds it as an application-scoped bean where the MicroProfile Health API is
 * present, so that nothing else in the library depends on it. The data's names are kept stable.
 */
@Readiness
public class InboxReadiness implements HealthCheck {

    /** The check's name in the health report. */
    static final String NAME = "txinbox";

    private static final Logger LOG = Logger.getLogger(InboxReadiness.class.getName());

    @Inject
    InboxExtension extension;

    @Override
    public HealthCheckResponse call() {
        HealthProbe probe = extension.healthProbe();
        InboxSettings settings = probe.settings();
        HealthCheckResponseBuilder response = HealthCheckResponse.named(NAME)
                .withData("table", settings.table().qualifiedName());
        HealthProbe.Findings findings;
        try {
            findings = probe.look();
        } catch (RuntimeException e) {
            LOG.log(Level.FINE, "The inbox's readiness check could not reach its database", e);
            return response.down().withData("error", "the database could not be reached: " + rootMessage(e)).build();
        }
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

    private static String rootMessage(Throwable failure) {
        Throwable root = failure;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        return root.getClass().getName() + ": " + root.getMessage();
    }
}
