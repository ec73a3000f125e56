package io.github.txinbox;

import static io.github.txinbox.InboxLimits.requireKey;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** The check of a marker's key parts: scope and message id. */
class InboxLimitsKeyTest {

    @Test
    void acceptsAnOrdinaryKey() {
        assertEquals("ID:abc-123", requireKey("messageId", "ID:abc-123", 1024));
    }

    @Test
    void refusesNullAndBlank() {
        assertEquals("messageId must not be null",
                assertThrows(IllegalArgumentException.class, () -> requireKey("messageId", null, 10)).getMessage());
        assertEquals("scope must not be blank",
                assertThrows(IllegalArgumentException.class, () -> requireKey("scope", " \t", 10)).getMessage());
        assertThrows(IllegalArgumentException.class, () -> requireKey("scope", "", 10));
    }

    @Test
    void countsTheLimitInUtf8Bytes() {
        // 'é' is 2 bytes, '€' 3 and '😀' (a surrogate pair) 4 in UTF-8.
        assertEquals("éé€😀", requireKey("messageId", "éé€😀", 11));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> requireKey("messageId", "é".repeat(40), 79));
        assertTrue(e.getMessage().startsWith("messageId is 80 bytes long in UTF-8; the limit is 79 bytes"),
                e.getMessage());
    }

    @Test
    void acceptsExactlyTheLimit() {
        assertEquals(1024, requireKey("messageId", "x".repeat(1024), 1024).length());
        assertThrows(IllegalArgumentException.class, () -> requireKey("messageId", "x".repeat(1025), 1024));
    }

    @Test
    void refusesNulCharactersWhichPostgresTextCannotHold() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> requireKey("messageId", "ab\u0000c", 100));
        assertEquals("messageId must not contain a NUL character (at index 2)", e.getMessage());
    }

    @Test
    void refusesUnpairedSurrogates() {
        assertThrows(IllegalArgumentException.class, () -> requireKey("messageId", "a\uD83D", 100));
        assertThrows(IllegalArgumentException.class, () -> requireKey("messageId", "a\uDE00b", 100));
        assertThrows(IllegalArgumentException.class, () -> requireKey("messageId", "\uDE00\uD83D", 100));
    }
}
