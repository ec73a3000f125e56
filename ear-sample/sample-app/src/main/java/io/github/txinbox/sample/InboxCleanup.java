package io.github.txinbox.sample;

import io.github.txinbox.ejb.InboxPurger;
import jakarta.annotation.PostConstruct;
import jakarta.annotation.Resource;
import jakarta.ejb.EJB;
import jakarta.ejb.Singleton;
import jakarta.ejb.Startup;
import jakarta.ejb.Timeout;
import jakarta.ejb.TimerConfig;
import jakarta.ejb.TimerService;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.logging.Logger;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * Purges expired inbox markers on a schedule: a non-persistent interval timer (a missed run needs no catching up:
 * the next one deletes whatever expired meanwhile). Its settings come from MicroProfile Config, as ISO-8601
 * durations: {@code sample.inbox.retention} (default {@code P7D}), which must outlast the broker's redelivery horizon
 * since a message redelivered after its marker is gone is processed again; {@code sample.inbox.purge-interval}
 * (default {@code PT5M}); and {@code sample.inbox.first-purge} (default {@code PT10S}), how long after start-up the
 * first purge runs.
 */
@Startup
@Singleton
public class InboxCleanup {

    private static final Logger LOG = Logger.getLogger(InboxCleanup.class.getName());

    @EJB
    InboxPurger purger;

    @Resource
    TimerService timers;

    @Inject
    @ConfigProperty(name = "sample.inbox.retention", defaultValue = "P7D")
    Duration retention;

    @Inject
    @ConfigProperty(name = "sample.inbox.purge-interval", defaultValue = "PT5M")
    Duration interval;

    @Inject
    @ConfigProperty(name = "sample.inbox.first-purge", defaultValue = "PT10S")
    Duration firstPurge;

    @PostConstruct
    void schedule() {
        timers.createIntervalTimer(firstPurge.toMillis(), interval.toMillis(), new TimerConfig("inbox purge", false));
        LOG.info(() -> "Purging inbox markers older than " + retention + " in " + firstPurge + ", then every "
                + interval);
    }

    @Timeout
    void purge() {
        long deleted = purger.purgeExpired(retention, 10_000);
        LOG.info(() -> "Purged " + deleted + " inbox markers older than " + retention);
    }
}
