package io.github.txinbox.it;

import static io.github.txinbox.it.app.TestDatabase.INBOX;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.txinbox.it.app.TestDatabase;
import io.github.txinbox.it.harness.Deployments;
import io.github.txinbox.it.schedule.InboxCleanup;
import java.util.concurrent.TimeUnit;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The purge driven by a non-persistent EJB timer, as an application schedules it (on Payara Micro with Hazelcast off,
 * and on the other servers of the portable suite).
 */
@Tag("portable")
@ExtendWith(ArquillianExtension.class)
class PurgeScheduleIT {

    @Deployment
    static WebArchive deployment() {
        return Deployments.war(PurgeScheduleIT.class, InboxCleanup.class);
    }

    @Test
    void theScheduledPurgeDeletesExpiredMarkers() throws InterruptedException {
        TestDatabase.update("INSERT INTO " + INBOX + " (scope, message_id, processed_at) "
                + "SELECT 'scheduled', 'expired-' || i, timestamptz '2001-01-01 00:00:00+00' "
                + "FROM generate_series(1, 30) AS i");
        int runsBefore = InboxCleanup.RUNS.get();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        // A run counts itself when purgeExpired returns, just after its last batch committed: wait for both.
        while (TestDatabase.queryLong("SELECT count(*) FROM " + INBOX + " WHERE scope = 'scheduled'") > 0
                || InboxCleanup.RUNS.get() == runsBefore) {
            assertTrue(System.nanoTime() < deadline, "the scheduled purge did not delete the expired markers (timer "
                    + "runs: " + (InboxCleanup.RUNS.get() - runsBefore) + ")");
            Thread.sleep(200);
        }
    }
}
