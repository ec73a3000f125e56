package io.github.txinbox;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

/**
 * The repository checks its arguments before it touches the transaction or the database: a repository with no
 * container behind it (no entity manager, no registry) must still answer bad input with IllegalArgumentException.
 */
class InboxRepositoryArgumentsTest {

    private final InboxRepository repository = new InboxRepository();

    private static String refused(Executable call) {
        return assertThrows(IllegalArgumentException.class, call).getMessage();
    }

    @Test
    void claimChecksScopeAndMessageId() {
        assertEquals("scope must not be null", refused(() -> repository.claim(null, "m")));
        assertEquals("messageId must not be blank", refused(() -> repository.claim("s", " ")));
        String scope = "s".repeat(InboxLimits.MAX_SCOPE_BYTES + 1);
        assertTrue(refused(() -> repository.claim(scope, "m")).startsWith("scope is 256 bytes long"));
        String id = "m".repeat(InboxLimits.DEFAULT_MESSAGE_ID_BYTES + 1);
        assertTrue(refused(() -> repository.claim("s", id)).startsWith("messageId is 1025 bytes long"));
    }

    @Test
    void claimAllChecksTheScopeAndEveryIdNamingItsPosition() {
        assertEquals("scope must not be null", refused(() -> repository.claimAll(null, List.of("m"))));
        assertEquals("messageIds must not be null", refused(() -> repository.claimAll("s", null)));
        assertEquals("messageIds[1] must not be null",
                refused(() -> repository.claimAll("s", Arrays.asList("m", null))));
        assertEquals("messageIds[2] must not be blank",
                refused(() -> repository.claimAll("s", List.of("a", "b", " "))));
        String id = "m".repeat(InboxLimits.DEFAULT_MESSAGE_ID_BYTES + 1);
        assertTrue(refused(() -> repository.claimAll("s", List.of(id))).startsWith("messageIds[0] is 1025 bytes long"));
        assertTrue(refused(() -> repository.claimAll("s", List.of("a\u0000"))).startsWith("messageIds[0] must not "
                + "contain a NUL"));
    }

    @Test
    void claimAllRefusesMoreDistinctIdsThanItsLimit() {
        List<String> tooMany = IntStream.rangeClosed(0, InboxLimits.MAX_CLAIM_IDS).mapToObj(i -> "ID:" + i).toList();
        assertEquals("messageIds holds 10001 distinct ids; the limit is 10000: claim them in several calls",
                refused(() -> repository.claimAll("s", tooMany)));
        // Copies count once: past the argument checks, this repository (no container behind it) finds no transaction.
        List<String> copies = Collections.nCopies(InboxLimits.MAX_CLAIM_IDS + 1, "ID:1");
        assertTrue(assertThrows(IllegalStateException.class, () -> repository.claimAll("s", copies)).getMessage()
                .startsWith("InboxRepository.claimAll cannot run"));
    }

    @Test
    void cleanupCutoffRefusesZeroNegativeAndUnboundedRetention() {
        assertEquals("retention must not be null", refused(() -> repository.cleanupCutoff(null)));
        assertEquals("retention must be at least one microsecond, but is PT0S",
                refused(() -> repository.cleanupCutoff(Duration.ZERO)));
        assertTrue(refused(() -> repository.cleanupCutoff(Duration.ofSeconds(-1))).contains("PT-1S"));
        assertTrue(refused(() -> repository.cleanupCutoff(Duration.ofNanos(999))).contains("microsecond"));
        assertTrue(refused(() -> repository.cleanupCutoff(InboxLimits.MAX_RETENTION.plusSeconds(1)))
                .startsWith("retention must be at most"));
    }

    @Test
    void deleteExpiredBatchChecksCutoffAndLimit() {
        Instant now = Instant.now();
        assertEquals("cutoff must not be null", refused(() -> repository.deleteExpiredBatch(null, 10)));
        assertEquals("limit must be between 1 and 100000, but is 0",
                refused(() -> repository.deleteExpiredBatch(now, 0)));
        assertTrue(refused(() -> repository.deleteExpiredBatch(now, -5)).endsWith("but is -5"));
        assertTrue(refused(() -> repository.deleteExpiredBatch(now, InboxLimits.MAX_BATCH_SIZE + 1))
                .endsWith("but is 100001"));
        assertTrue(refused(() -> repository.deleteExpiredBatch(Instant.parse("+10000-01-01T00:00:00Z"), 10))
                .contains("out of range"));
        assertTrue(refused(() -> repository.deleteExpiredBatch(Instant.EPOCH.minus(800_000, ChronoUnit.DAYS), 10))
                .contains("out of range"));
    }

    @Test
    void deleteExpiredBatchFromChecksTheLowerBound() {
        Instant now = Instant.now();
        assertEquals("from must not be null", refused(() -> repository.deleteExpiredBatch(null, now, 10)));
        assertTrue(refused(() -> repository.deleteExpiredBatch(now.plusSeconds(1), now, 10))
                .startsWith("from " + now.plusSeconds(1) + " is after the cutoff"));
        assertTrue(refused(() -> repository.deleteExpiredBatch(Instant.MIN, now, 10)).contains("out of range"));
        assertEquals("limit must be between 1 and 100000, but is 0",
                refused(() -> repository.deleteExpiredBatch(now, now, 0)));
    }

    @Test
    void aDeletedBatchNamesItsNewestExactlyWhenItDeletedSome() {
        assertEquals(0, new DeletedBatch(0, null).deleted());
        assertThrows(IllegalArgumentException.class, () -> new DeletedBatch(1, null));
        assertThrows(IllegalArgumentException.class, () -> new DeletedBatch(0, Instant.EPOCH));
        assertThrows(IllegalArgumentException.class, () -> new DeletedBatch(-1, null));
    }
}
