package io.github.txinbox;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class InboxSchemaTest {

    @Test
    void theMigrationResourceIsTheDdlOfTheDefaultTable() throws IOException {
        assertEquals(InboxSchema.createTableSql(InboxTable.DEFAULT), resource(InboxSchema.MIGRATION_RESOURCE));
    }

    private String resource(String name) throws IOException {
        try (InputStream in = getClass().getClassLoader().getResourceAsStream(name)) {
            assertNotNull(in, name);
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    @Test
    void quotesASchemaQualifiedTableAndItsIndex() {
        String ddl = InboxSchema.createTableSql(InboxTable.of("messaging.events"));
        assertTrue(ddl.startsWith("CREATE TABLE IF NOT EXISTS \"messaging\".\"events\" ("), ddl);
        assertTrue(ddl.contains(
                "CREATE INDEX IF NOT EXISTS \"events_processed_at_idx\" ON \"messaging\".\"events\" (processed_at);"),
                ddl);
    }

    @Test
    void refusesNull() {
        assertThrows(IllegalArgumentException.class, () -> InboxSchema.createTableSql(null));
    }
}
