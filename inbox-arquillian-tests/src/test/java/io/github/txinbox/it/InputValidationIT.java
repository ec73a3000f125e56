package io.github.txinbox.it;

import static io.github.txinbox.it.app.TestDatabase.INBOX;
import static io.github.txinbox.it.app.TestDatabase.markers;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.txinbox.InboxLimits;
import io.github.txinbox.InboxRepository;
import io.github.txinbox.it.app.TestDatabase;
import io.github.txinbox.it.app.Transactions;
import io.github.txinbox.it.harness.Deployments;
import jakarta.annotation.Resource;
import jakarta.inject.Inject;
import jakarta.transaction.Status;
import jakarta.transaction.UserTransaction;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.UUID;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.function.Executable;

/**
 * Every bad argument is refused in Java, before any SQL runs: the caller's transaction stays active and can still
 * claim and commit. (PostgreSQL would abort the whole transaction on a failed statement.)
 */
@Tag("portable")
@ExtendWith(ArquillianExtension.class)
class InputValidationIT {

    private static final SecureRandom RANDOM = new SecureRandom();

    @Deployment
    static WebArchive deployment() {
        return Deployments.war(InputValidationIT.class);
    }

    @Inject
    InboxRepository inbox;

    @Resource(lookup = "java:comp/UserTransaction")
    UserTransaction transaction;

    /** Characters no compression shrinks much: the worst case for the index entry's size. */
    private static String incompressible(int length) {
        String alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
        return IntStream.range(0, length)
                .mapToObj(i -> String.valueOf(alphabet.charAt(RANDOM.nextInt(alphabet.length()))))
                .collect(Collectors.joining());
    }

    /** Random emoji, four bytes each in UTF-8: the most bytes a length admits, none of them compressible. */
    private static String fourByteCharacters(int bytes) {
        return IntStream.range(0, bytes / 4)
                .mapToObj(i -> Character.toString(0x1F600 + RANDOM.nextInt(0x4F)))
                .collect(Collectors.joining());
    }

    @Test
    void everyBadArgumentIsRefusedAndTheTransactionStaysUsable() throws Exception {
        String tooLongScope = "s".repeat(InboxLimits.MAX_SCOPE_BYTES + 1);
        String tooLongId = incompressible(InboxLimits.DEFAULT_MESSAGE_ID_BYTES + 1);
        Map<String, Executable> badCalls = Map.ofEntries(
                Map.entry("null scope", () -> inbox.claim(null, "m")),
                Map.entry("blank scope", () -> inbox.claim("  ", "m")),
                Map.entry("null id", () -> inbox.claim("orders", null)),
                Map.entry("blank id", () -> inbox.claim("orders", "\t")),
                Map.entry("scope too long", () -> inbox.claim(tooLongScope, "m")),
                Map.entry("id too long", () -> inbox.claim("orders", tooLongId)),
                Map.entry("NUL in id", () -> inbox.claim("orders", "a\u0000b")),
                Map.entry("unpaired surrogate in id", () -> inbox.claim("orders", "a\uD800")),
                Map.entry("null retention", () -> inbox.cleanupCutoff(null)),
                Map.entry("zero retention", () -> inbox.cleanupCutoff(Duration.ZERO)),
                Map.entry("negative retention", () -> inbox.cleanupCutoff(Duration.ofMinutes(-5))),
                Map.entry("null cutoff", () -> inbox.deleteExpiredBatch(null, 10)),
                Map.entry("cutoff out of range", () -> inbox.deleteExpiredBatch(Instant.MAX, 10)),
                Map.entry("zero limit", () -> inbox.deleteExpiredBatch(Instant.now(), 0)),
                Map.entry("negative limit", () -> inbox.deleteExpiredBatch(Instant.now(), -1)),
                Map.entry("limit too large",
                        () -> inbox.deleteExpiredBatch(Instant.now(), InboxLimits.MAX_BATCH_SIZE + 1)));
        String id = "ID:" + UUID.randomUUID();
        Transactions.commit(transaction, () -> {
            for (Map.Entry<String, Executable> call : badCalls.entrySet()) {
                IllegalArgumentException e = assertThrows(IllegalArgumentException.class, call.getValue(),
                        call.getKey());
                assertTrue(e.getMessage() != null && !e.getMessage().isBlank(), call.getKey());
                assertEquals(Status.STATUS_ACTIVE, transaction.getStatus(), call.getKey());
            }
            assertTrue(inbox.claim("orders", id), "the transaction can still claim");
            return null;
        });
        assertEquals(1, markers(INBOX, "orders", id), "the transaction committed its claim");
    }

    @Test
    void theLongestAcceptedKeyFitsThePrimaryKeyIndex() throws Exception {
        String scope = incompressible(InboxLimits.MAX_SCOPE_BYTES);
        String id = fourByteCharacters(InboxLimits.DEFAULT_MESSAGE_ID_BYTES);
        assertTrue(Transactions.commit(transaction, () -> inbox.claim(scope, id)));
        assertEquals(1, markers(INBOX, scope, id));
    }

    @Test
    void theHighestIdLimitThatMayBeConfiguredFitsThePrimaryKeyIndex() throws SQLException {
        // txinbox.limits.message-id-bytes admits up to this ceiling: with the longest scope, the entry still fits.
        String scope = incompressible(InboxLimits.MAX_SCOPE_BYTES);
        String id = fourByteCharacters(InboxLimits.MESSAGE_ID_BYTES_CEILING);
        assertEquals(InboxLimits.MESSAGE_ID_BYTES_CEILING, id.getBytes(StandardCharsets.UTF_8).length);
        assertEquals(1, TestDatabase.update("INSERT INTO " + INBOX + " (scope, message_id) VALUES (?, ?)", scope, id));
        assertEquals(1, markers(INBOX, scope, id));
    }

    @Test
    void withoutTheLimitAnOversizedKeyWouldAbortTheTransaction() throws SQLException {
        // What the length check prevents, shown beside the container: PostgreSQL refuses the index entry
        // (SQLSTATE 54000, program_limit_exceeded), which aborts the transaction it runs in.
        try (Connection connection = TestDatabase.connect();
                PreparedStatement insert = TestDatabase.prepare(connection,
                        "INSERT INTO " + INBOX + " (scope, message_id) VALUES (?, ?)", "orders",
                        incompressible(4000))) {
            SQLException e = assertThrows(SQLException.class, insert::executeUpdate);
            assertEquals("54000", e.getSQLState(), e.getMessage());
        }
    }
}
