package io.github.txinbox;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.transaction.Status;
import org.junit.jupiter.api.Test;

class NoActiveTransactionExceptionTest {

    @Test
    void namesTheOperationAndTheStatusSeen() {
        NoActiveTransactionException e =
                new NoActiveTransactionException("InboxRepository.claim", Status.STATUS_NO_TRANSACTION);
        assertTrue(e.getMessage().startsWith("InboxRepository.claim requires an active JTA transaction, "
                + "but the transaction status is STATUS_NO_TRANSACTION (6)"), e.getMessage());
        assertEquals("InboxRepository.claim", e.operation());
        assertEquals(Status.STATUS_NO_TRANSACTION, e.status());
    }

    @Test
    void namesEveryStatusAndSurvivesUnknownOnes() {
        assertEquals("STATUS_MARKED_ROLLBACK (1)", TransactionStatus.describe(Status.STATUS_MARKED_ROLLBACK));
        assertEquals("STATUS_ROLLING_BACK (9)", TransactionStatus.describe(Status.STATUS_ROLLING_BACK));
        assertEquals("an unknown status (42)", TransactionStatus.describe(42));
    }
}
