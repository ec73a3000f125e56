package io.github.txinbox.sample;

import io.github.txinbox.ejb.InboxPurger;
import jakarta.ejb.EJB;
import jakarta.ejb.Schedule;
import jakarta.ejb.Singleton;
import java.time.Duration;
import java.util.logging.Logger;

/**
 * Purges expired inbox markers every five minutes. The retention comes from the system property
 * {@code sample.inbox.retention} (an ISO-8601 duration; default {@code P7D}): it must outlast the broker's
 * redelivery horizon, since a message redelivered after its marker is gone is processed again.
 */
@Singleton
public class InboxCleanup {

    private static final Logger LOG = Logger.getLogger(InboxCleanup.class.getName());

    @EJB
    InboxPurger purger;

    // Not persistent: a missed run needs no catching up, the next one deletes whatever expired meanwhile.
    @Schedule(hour = "*", minute = "*/5", persistent = false)
    void purge() {
        Duration retention = Duration.parse(System.getProperty("sample.inbox.retention", "P7D"));
        long deleted = purger.purgeExpired(retention, 1_000);
        LOG.info(() -> "Purged " + deleted + " inbox markers older than " + retention);
    }
}
