package io.github.txinbox;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Instant;
import org.junit.jupiter.api.Test;

/** The rows of the prepared-transactions query, whose owner's length PostgreSQL counts in code points. */
class PreparedTransactionTest {

    private static final Instant PREPARED = Instant.parse("2026-12-02T10:15:30.123456Z");
    private static final String MICROS = "1796206530123456";

    @Test
    void readsTimeOwnerAndAGidThatHoldsSpaces() {
        assertEquals(new PreparedTransaction("131077 gid with spaces", PREPARED, "txinbox"),
                PreparedTransaction.ofRow(MICROS + " 7 txinbox131077 gid with spaces"));
    }

    @Test
    void anOwnerOutsideTheBasicPlaneIsCountedAsPostgreSqlCountsIt() {
        String owner = "app\uD83D\uDE80"; // four code points, five UTF-16 chars
        assertEquals(new PreparedTransaction("gid-1", PREPARED, owner),
                PreparedTransaction.ofRow(MICROS + " 4 " + owner + "gid-1"));
    }
}
