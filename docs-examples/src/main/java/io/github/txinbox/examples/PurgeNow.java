package io.github.txinbox.examples;

import io.github.txinbox.ejb.InboxPurger;
import jakarta.ejb.EJB;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Duration;

/** Purges on demand, from an administrator's endpoint say. */
@ApplicationScoped
public class PurgeNow {

    @EJB
    InboxPurger purger;

    /**
     * Purges the markers older than 14 days.
     *
     * @return how many were deleted
     */
    public long purge() {
        // tag::purge[]
        long deleted = purger.purgeExpired(Duration.ofDays(14), 10_000);
        // end::purge[]
        return deleted;
    }
}
