package io.github.txinbox.examples;

import io.github.txinbox.ejb.InboxPurger;
import jakarta.ejb.EJB;
import jakarta.ejb.Schedule;
import jakarta.ejb.Singleton;
import java.time.Duration;

// tag::cleanup[]
@Singleton
public class InboxCleanup {

    @EJB
    InboxPurger purger;

    // tag::schedule[]
    @Schedule(hour = "*", minute = "*/10", persistent = false)
    void purge() {
        purger.purgeExpired(Duration.ofDays(14), 10_000);
    }
    // end::schedule[]
}
// end::cleanup[]
