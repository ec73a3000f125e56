package io.github.txinbox.internal.metrics;

import io.github.txinbox.InboxEvent;
import io.github.txinbox.InboxOutcome;
import jakarta.annotation.Priority;
import jakarta.enterprise.event.Observes;
import jakarta.enterprise.inject.Instance;
import jakarta.inject.Inject;
import jakarta.interceptor.Interceptor;
import java.util.Locale;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.logging.Logger;
import org.eclipse.microprofile.metrics.Counter;
import org.eclipse.microprofile.metrics.Metadata;
import org.eclipse.microprofile.metrics.MetricRegistry;
import org.eclipse.microprofile.metrics.MetricUnits;
import org.eclipse.microprofile.metrics.Tag;
import org.eclipse.microprofile.metrics.Timer;

/**
 * Counts the calls the inbox reported, by what their transactions ended with, and times them in the application's
 * MicroProfile Metrics registry, from the {@link InboxEvent}s, under the names and tags docs/inbox.md lists, which are
 * kept stable. Not discovered: {@link io.github.txinbox.internal.binding.InboxExtension} adds it as an
 * application-scoped bean where the MicroProfile Metrics API is present, so that nothing else in the library depends on
 * it.
 */
public class InboxMetrics {

    /** The counter of ended calls, tagged {@value #SCOPE_TAG} and {@value #OUTCOME_TAG}. */
    static final String MESSAGES = "txinbox.messages";

    /** The timer of calls, from the interceptor's start to the end of the transaction; same tags. */
    static final String DURATION = "txinbox.duration";

    /** The tag holding the deduplication scope. */
    static final String SCOPE_TAG = "scope";

    /** The tag holding the outcome, in lower case: processed, skipped, retry, held, duplicate, failure,
     * missing_id, rolled_back. */
    static final String OUTCOME_TAG = "outcome";

    private static final Logger LOG = Logger.getLogger(InboxMetrics.class.getName());

    private static final Metadata MESSAGES_METADATA = Metadata.builder().withName(MESSAGES)
            .withDescription("Messages the inbox handled, by scope and what their transaction ended with").build();

    private static final Metadata DURATION_METADATA = Metadata.builder().withName(DURATION)
            .withDescription("Time from the interceptor's start (before the claim) to the end of the transaction, by "
                    + "scope and outcome")
            .withUnit(MetricUnits.NANOSECONDS).build();

    private record Instruments(Counter messages, Timer duration) {
    }

    private static final int OUTCOMES = InboxOutcome.values().length;

    /**
     * Each scope's instruments, by outcome's ordinal, registered at their first event. Two first events at once may
     * both register one; the registry gives both the same instruments.
     */
    private final ConcurrentMap<String, Instruments[]> instruments = new ConcurrentHashMap<>();

    @Inject
    Instance<MetricRegistry> registries;

    private volatile MetricRegistry registry;
    private volatile boolean unavailable;

    /**
     * Records one ended call; first among the observers, so that an application observer that fails cannot hide it.
     */
    void record(@Observes @Priority(Interceptor.Priority.LIBRARY_BEFORE) InboxEvent event) {
        if (unavailable) {
            return;
        }
        Instruments[] forScope = instruments.computeIfAbsent(event.scope(), scope -> new Instruments[OUTCOMES]);
        int outcome = event.outcome().ordinal();
        Instruments forKey = forScope[outcome];
        if (forKey == null) {
            forKey = register(event.scope(), event.outcome());
            if (forKey == null) {
                return;
            }
            forScope[outcome] = forKey;
        }
        forKey.messages().inc();
        forKey.duration().update(event.duration());
    }

    private Instruments register(String scope, InboxOutcome outcome) {
        MetricRegistry metrics = registry();
        if (metrics == null) {
            return null;
        }
        Tag[] tags = {new Tag(SCOPE_TAG, scope), new Tag(OUTCOME_TAG, outcome.name().toLowerCase(Locale.ROOT))};
        return new Instruments(metrics.counter(MESSAGES_METADATA, tags), metrics.timer(DURATION_METADATA, tags));
    }

    private MetricRegistry registry() {
        MetricRegistry found = registry;
        if (found == null) {
            if (!registries.isResolvable()) {
                // The API is there but no implementation serves it.
                unavailable = true;
                LOG.info("The MicroProfile Metrics API is present but no MetricRegistry can be injected; "
                        + "the inbox records no metrics");
                return null;
            }
            found = registries.get();
            registry = found;
        }
        return found;
    }
}
