package io.github.txinbox.internal.binding;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

class TransactionBoundaryTest {

    private static Map<String, Object> noted(Object callersKey) {
        Map<String, Object> contextData = new HashMap<>();
        TransactionBoundary.remember(contextData, callersKey);
        return contextData;
    }

    @Test
    void aTransactionBegunWhereTheCallerHadNoneIsNotTheCallers() {
        assertFalse(TransactionBoundary.callersTransaction(noted(null), "tx-1"));
    }

    @Test
    void aNewTransactionBesideTheCallersIsNotTheCallers() {
        assertFalse(TransactionBoundary.callersTransaction(noted("tx-1"), "tx-2"));
    }

    @Test
    void theTransactionTheCallerWasInIsTheCallers() {
        assertTrue(TransactionBoundary.callersTransaction(noted("tx-1"), "tx-1"));
    }

    @Test
    void aCallWhoseEntryWasNotNotedIsNotKnownToBeInTheCallersTransaction() {
        assertFalse(TransactionBoundary.callersTransaction(new HashMap<>(), "tx-1"));
    }
}
