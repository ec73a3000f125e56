package io.github.txinbox.http;

import io.github.txinbox.InboxSchema;
import io.github.txinbox.InboxTable;

/**
 * The DDL of what {@link Idempotent @Idempotent} adds to the inbox table: four nullable columns where it stores the
 * response to replay, {@code request_fingerprint} and {@code response_body} ({@code bytea}), {@code response_status}
 * ({@code smallint}) and {@code response_headers} ({@code text}). A message's marker leaves them empty. Like the core,
 * inbox-http never changes a schema on its own: run this DDL through your migration tool, after the core's
 * ({@link InboxSchema}).
 */
public final class ResponseSchema {

    /**
     * The class-path resource that adds the response columns to the {@linkplain InboxTable#DEFAULT default table},
     * named as the Flyway versioned migration after the core's {@link InboxSchema#MIGRATION_RESOURCE}: {@value}.
     */
    public static final String MIGRATION_RESOURCE = "META-INF/txinbox/V2__add_response_columns.sql";

    /** Adds the response columns to the table %1$s, unless they exist. */
    static final String ADD_RESPONSE_COLUMNS = """
            ALTER TABLE %1$s
                ADD COLUMN IF NOT EXISTS request_fingerprint bytea,
                ADD COLUMN IF NOT EXISTS response_status     smallint,
                ADD COLUMN IF NOT EXISTS response_headers    text,
                ADD COLUMN IF NOT EXISTS response_body       bytea;
            """;

    private ResponseSchema() {
    }

    /**
     * Returns the DDL that adds the response columns to an existing table, unless they exist: one statement. It
     * changes no row, and takes a moment's exclusive lock on the table.
     *
     * @param table the table
     * @return the DDL
     * @throws IllegalArgumentException when the table is null
     */
    public static String addResponseColumnsSql(InboxTable table) {
        if (table == null) {
            throw new IllegalArgumentException("Inbox table must not be null");
        }
        return ADD_RESPONSE_COLUMNS.formatted(table.quotedName());
    }
}
