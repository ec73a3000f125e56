package io.github.txinbox.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.txinbox.InboxTable;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class ResponseSchemaTest {

    @Test
    void theMigrationResourceIsTheDdlOfTheDefaultTable() throws IOException {
        try (InputStream in = getClass().getClassLoader().getResourceAsStream(ResponseSchema.MIGRATION_RESOURCE)) {
            assertNotNull(in, ResponseSchema.MIGRATION_RESOURCE);
            assertEquals(ResponseSchema.addResponseColumnsSql(InboxTable.DEFAULT),
                    new String(in.readAllBytes(), StandardCharsets.UTF_8));
        }
    }

    @Test
    void quotesASchemaQualifiedTable() {
        String ddl = ResponseSchema.addResponseColumnsSql(InboxTable.of("messaging.events"));
        assertTrue(ddl.startsWith("ALTER TABLE \"messaging\".\"events\"\n"), ddl);
        assertTrue(ddl.contains("ADD COLUMN IF NOT EXISTS response_body       bytea;"), ddl);
    }

    @Test
    void refusesNull() {
        assertThrows(IllegalArgumentException.class, () -> ResponseSchema.addResponseColumnsSql(null));
    }
}
