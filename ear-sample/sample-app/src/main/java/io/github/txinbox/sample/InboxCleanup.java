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
import java.time.Duration;
import java.util.logging.Logger;

/**
 * Purges expired inbox markers on a schedule: a non-persistent interval timer (a missed run needs no catching up:
 * the next one deletes whatever expired meanwhile). Its settings are system properties, ISO-8601 durations:
 * {@code sample.inbox.retention} (default {@code P7D}), which must outlast the broker's redelivery horizon since a
 * message redelivered after its marker is gone is processed again, and {@code sample.inbox.purge-interval} (default
 * {@code PT5M}).
 */
@Startup
@Singleton
public class InboxCleanup {

    private static final Logger LOG = Logger.getLogger(InboxCleanup.class.getName());

    @EJB
    InboxPurger purger;

    @Resource
    TimerService timers;

    private Duration retention;

    @PostConstruct
    void schedule() {
        retention = Duration.parse(System.getProperty("sample.inbox.retention", "P7D"));
        Duration interval = Duration.parse(System.getProperty("sample.inbox.purge-interval", "PT5M"));
        timers.createIntervalTimer(interval.toMillis(), interval.toMillis(), new TimerConfig("inbox purge", false));
        LOG.info(() -> "Purging inbox markers older than " + retention + " every " + interval);
    }

    @Timeout
    void purge() {
        long deleted = purger.purgeExpired(retention, 10_000);
        LOG.info(() -> "Purged " + deleted + " inbox markers older than " + retention);
    }
}
