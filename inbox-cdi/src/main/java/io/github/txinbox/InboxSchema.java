package io.github.txinbox;

/**
 * The DDL of the inbox table. txinbox never creates tables on its own: the application owns its schema and runs this
 * DDL through its migration tool (Flyway, Liquibase) or by hand.
 *
 * <p>The table has the columns {@code scope} and {@code message_id} ({@code text}, compared byte-wise with
 * {@code COLLATE "C"}, so that the primary key does not depend on the operating system's collation library),
 * {@code processed_at} ({@code timestamptz}, default {@code now()}), the primary key {@code (scope, message_id)} and
 * an index on {@code processed_at} for cleanup. inbox-http's {@code @Idempotent} needs four more columns, where it
 * stores the response to replay; its {@code ResponseSchema} has their DDL.
 */
public final class InboxSchema {

    /**
     * The class-path resource holding the DDL for the {@linkplain InboxTable#DEFAULT default table}, named as a Flyway
     * versioned migration: {@value}.
     */
    public static final String MIGRATION_RESOURCE = "META-INF/txinbox/V1__create_inbox_table.sql";

    private InboxSchema() {
    }

    /**
     * Returns the DDL that creates the given table and its index, if they do not exist yet: two statements, separated
     * by semicolons, the migration resource's for the default table.
     *
     * @param table the table to create
     * @return the DDL
     * @throws IllegalArgumentException when the table is null
     */
    public static String createTableSql(InboxTable table) {
        if (table == null) {
            throw new IllegalArgumentException("Inbox table must not be null");
        }
        return Sql.forTable(Sql.CREATE_TABLE, table);
    }
}
