package io.github.txinbox.internal;

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
    void aTransactionBegunWhereTheCallerHadNoneIsTheCallsOwn() {
        assertTrue(TransactionBoundary.ownTransaction(noted(null), "tx-1"));
    }

    @Test
    void aNewTransactionBesideTheCallersIsTheCallsOwn() {
        assertTrue(TransactionBoundary.ownTransaction(noted("tx-1"), "tx-2"));
    }

    @Test
    void theCallersTransactionIsNotTheCallsOwn() {
        assertFalse(TransactionBoundary.ownTransaction(noted("tx-1"), "tx-1"));
    }

    @Test
    void aCallWhoseEntryWasNotNotedKeepsTheDeclaredRule() {
        assertFalse(TransactionBoundary.ownTransaction(new HashMap<>(), "tx-1"));
    }
}
