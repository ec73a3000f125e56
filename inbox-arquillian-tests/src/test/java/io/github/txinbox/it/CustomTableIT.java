package io.github.txinbox.it;

import static io.github.txinbox.it.app.TestDatabase.queryLong;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.txinbox.InboxLimits;
import io.github.txinbox.InboxRepository;
import io.github.txinbox.InboxTable;
import io.github.txinbox.it.app.TestDatabase;
import io.github.txinbox.it.app.Transactions;
import io.github.txinbox.it.harness.Deployments;
import jakarta.annotation.Resource;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Inject;
import jakarta.transaction.UserTransaction;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.UUID;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * An application that produces an {@link InboxTable} gets its markers in that (schema-qualified) table; the table
 * here is hash-partitioned by the key and has no default for {@code processed_at} (PostgresSession creates it), which
 * the start-up check, the claim and the purge all accept.
 */
@Tag("portable")
@ExtendWith(ArquillianExtension.class)
class CustomTableIT {

    private static final String TABLE = TestDatabase.CUSTOM_SCHEMA + ".markers";

    /** The application's configuration, as a user would write it. */
    @ApplicationScoped
    static class InboxConfiguration {

        @Produces
        InboxTable inboxTable() {
            return InboxTable.of("TxInbox_IT_Custom.Markers");
        }
    }

    @Deployment
    static WebArchive deployment() {
        return Deployments.war(CustomTableIT.class);
    }

    @Inject
    InboxRepository inbox;

    @Resource(lookup = "java:comp/UserTransaction")
    UserTransaction transaction;

    @Test
    void theRepositoryUsesTheProducedTable() {
        assertEquals(new InboxTable(TestDatabase.CUSTOM_SCHEMA, "markers"), inbox.table());
    }

    @Test
    void claimsLandInTheConfiguredTable() throws Exception {
        String id = "ID:" + UUID.randomUUID();
        assertTrue(Transactions.commit(transaction, () -> inbox.claim("orders", id)));
        assertFalse(Transactions.commit(transaction, () -> inbox.claim("orders", id)));
        assertEquals(1, TestDatabase.markers(TABLE, "orders", id));
        assertEquals(0, TestDatabase.markers(TestDatabase.INBOX, "orders", id));
    }

    @Test
    void aPurgeOfTheHashPartitionedTableDeletesOnlyExpiredMarkers() throws Exception {
        String scope = "partitions-" + UUID.randomUUID();
        OffsetDateTime expired = OffsetDateTime.of(2001, 1, 1, 0, 0, 0, 0, ZoneOffset.UTC);
        // A ctid is unique only within one partition: add expired and live markers until an expired one shares its
        // ctid with a live one in another partition, so that a delete by ctid alone would take the live one too.
        int live = 0;
        while (queryLong("SELECT count(*) FROM " + TABLE + " e JOIN " + TABLE + " l ON e.ctid = l.ctid "
                + "AND e.tableoid <> l.tableoid WHERE e.scope = ? AND l.scope = ? AND e.processed_at = ? "
                + "AND l.processed_at > ?", scope, scope, expired, expired) == 0) {
            assertTrue(live < 1_000, "no expired marker shares its ctid with a live one in another partition");
            TestDatabase.update("INSERT INTO " + TABLE + " (scope, message_id, processed_at) VALUES (?, ?, ?)",
                    scope, "expired-" + live, expired);
            TestDatabase.update("INSERT INTO " + TABLE + " (scope, message_id, processed_at) VALUES (?, ?, now())",
                    scope, "live-" + live);
            live++;
        }
        Transactions.commit(transaction,
                () -> inbox.deleteExpiredBatch(Instant.parse("2001-01-01T00:00:01Z"), InboxLimits.MAX_BATCH_SIZE));
        assertEquals(0, queryLong("SELECT count(*) FROM " + TABLE + " WHERE scope = ? AND processed_at = ?",
                scope, expired));
        assertEquals(live, queryLong("SELECT count(*) FROM " + TABLE + " WHERE scope = ? AND processed_at > ?",
                scope, expired), "a live marker was deleted");
    }

    @Test
    void cleanupWorksOnTheConfiguredTable() throws Exception {
        String id = "ID:" + UUID.randomUUID();
        TestDatabase.update("INSERT INTO " + TABLE + " (scope, message_id, processed_at) VALUES (?, ?, ?)",
                "cleanup", id, OffsetDateTime.of(2001, 1, 1, 0, 0, 0, 0, ZoneOffset.UTC));
        int deleted = Transactions.commit(transaction,
                () -> inbox.deleteExpiredBatch(Instant.parse("2001-01-01T00:00:01Z"), 100));
        assertEquals(1, deleted);
        assertEquals(0, TestDatabase.markers(TABLE, "cleanup", id));
    }
}
