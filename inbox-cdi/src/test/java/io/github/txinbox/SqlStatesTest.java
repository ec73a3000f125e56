package io.github.txinbox;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.SQLException;
import org.junit.jupiter.api.Test;

class SqlStatesTest {

    @Test
    void findsTheSqlStateDeepInTheCauseChain() {
        SQLException driver = new SQLException("could not serialize access due to concurrent update", "40001");
        RuntimeException wrapped = new RuntimeException("persistence", new IllegalStateException("jdbc", driver));
        assertEquals("40001", SqlStates.of(wrapped));
        assertTrue(SqlStates.isTransactionConflict(wrapped));
    }

    @Test
    void followsNextExceptions() {
        SQLException batch = new SQLException("batch failed");
        batch.setNextException(new SQLException("deadlock", "40P01"));
        assertEquals("40P01", SqlStates.of(new RuntimeException(batch)));
        assertTrue(SqlStates.isTransactionConflict(batch));
    }

    @Test
    void otherStatesAndMessagesAreNotConflicts() {
        assertFalse(SqlStates.isTransactionConflict(new SQLException("relation does not exist", "42P01")));
        // The message text mentions serialization, but only the SQLSTATE counts.
        assertFalse(SqlStates.isTransactionConflict(new RuntimeException("could not serialize access")));
        assertNull(SqlStates.of(new RuntimeException("no SQL here")));
    }
}
