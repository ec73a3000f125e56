package io.github.txinbox.it.schedule;

import io.github.txinbox.ejb.InboxPurger;
import jakarta.ejb.EJB;
import jakarta.ejb.Schedule;
import jakarta.ejb.Singleton;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The application's scheduler: a non-persistent EJB timer every two seconds here, every few minutes in production. A
 * top-level class, as the Enterprise Beans specification asks (WildFly refuses a nested one).
 */
@Singleton
public class InboxCleanup {

    /** How many runs have finished. */
    public static final AtomicInteger RUNS = new AtomicInteger();

    @EJB
    InboxPurger purger;

    @Schedule(hour = "*", minute = "*", second = "*/2", persistent = false)
    void purge() {
        purger.purgeExpired(Duration.ofDays(365), 1_000);
        RUNS.incrementAndGet();
    }
}
