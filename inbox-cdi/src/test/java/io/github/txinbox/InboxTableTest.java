package io.github.txinbox;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class InboxTableTest {

    @Test
    void defaultIsInboxOnTheSearchPath() {
        assertNull(InboxTable.DEFAULT.schema());
        assertEquals("inbox", InboxTable.DEFAULT.name());
        assertEquals("\"inbox\"", InboxTable.DEFAULT.quotedName());
        assertEquals("inbox", InboxTable.DEFAULT.qualifiedName());
    }

    @Test
    void parsesASchemaQualifiedName() {
        InboxTable table = InboxTable.of("messaging.inbox_v2");
        assertEquals("messaging", table.schema());
        assertEquals("inbox_v2", table.name());
        assertEquals("\"messaging\".\"inbox_v2\"", table.quotedName());
        assertEquals("messaging.inbox_v2", table.toString());
    }

    @Test
    void foldsToLowerCaseAsPostgresDoesForUnquotedNames() {
        InboxTable table = InboxTable.of("Messaging.Inbox$1");
        assertEquals("\"messaging\".\"inbox$1\"", table.quotedName());
    }

    @Test
    void acceptsTheLongestIdentifierPostgresKeeps() {
        String longest = "t".repeat(InboxTable.MAX_IDENTIFIER_LENGTH);
        assertEquals(longest, InboxTable.of(longest).name());
    }

    @ParameterizedTest
    @ValueSource(strings = {
            "", " ", "inbox;drop table inbox", "\"inbox\"", "inbox\"; --", "in box", "1inbox", "inbox--",
            "a.b.c", ".inbox", "inbox.", "schema..inbox", "inbox/*x*/", "inbox\u0000", "inbøx", "$inbox",
            "inbox'", "inbox)"})
    void refusesAnythingButPlainIdentifiers(String hostile) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> InboxTable.of(hostile));
        assertTrue(e.getMessage().startsWith("Inbox "), e.getMessage());
    }

    @Test
    void refusesNamesPostgresWouldTruncate() {
        String tooLong = "t".repeat(InboxTable.MAX_IDENTIFIER_LENGTH + 1);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> InboxTable.of(tooLong));
        assertTrue(e.getMessage().contains("64 characters long"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> new InboxTable(tooLong, "inbox"));
    }

    @Test
    void refusesNull() {
        assertThrows(IllegalArgumentException.class, () -> InboxTable.of(null));
        assertThrows(IllegalArgumentException.class, () -> new InboxTable("public", null));
    }

    @Test
    void indexNameStaysWithinTheIdentifierLimit() {
        assertEquals("inbox_processed_at_idx", InboxTable.DEFAULT.processedAtIndexName());
        String longest = "t".repeat(InboxTable.MAX_IDENTIFIER_LENGTH);
        String index = InboxTable.of(longest).processedAtIndexName();
        assertEquals(InboxTable.MAX_IDENTIFIER_LENGTH, index.length());
        assertTrue(index.endsWith("_processed_at_idx"), index);
    }
}
