package io.github.txinbox;

/**
 * The DDL of the inbox table. txinbox never creates tables on its own: the application owns its schema and runs this
 * DDL through its migration tool (Flyway, Liquibase) or by hand.
 *
 * <p>The table has the columns {@code scope} and {@code message_id} ({@code text}, compared byte-wise with
 * {@code COLLATE "C"}, so that the primary key does not depend on the operating system's collation library),
 * {@code processed_at} ({@code timestamptz}, default {@code now()}), the primary key {@code (scope, message_id)} and
 * an index on {@code processed_at} for cleanup, and four nullable columns where {@link Idempotent @Idempotent} stores
 * the response to replay: {@code request_fingerprint} and {@code response_body} ({@code bytea}),
 * {@code response_status} ({@code smallint}) and {@code response_headers} ({@code text}).
 */
public final class InboxSchema {

    /**
     * The class-path resource holding the DDL for the {@linkplain InboxTable#DEFAULT default table}, named as a Flyway
     * versioned migration: {@value}.
     */
    public static final String MIGRATION_RESOURCE = "META-INF/txinbox/V1__create_inbox_table.sql";

    /**
     * The class-path resource that adds the columns {@link Idempotent @Idempotent} stores responses in to the
     * {@linkplain InboxTable#DEFAULT default table}, the second Flyway versioned migration beside
     * {@link #MIGRATION_RESOURCE}: {@value}. An application that uses no {@code @Idempotent} may leave it out.
     */
    public static final String RESPONSE_MIGRATION_RESOURCE = "META-INF/txinbox/V2__add_response_columns.sql";

    private InboxSchema() {
    }

    /**
     * Returns the DDL that creates the given table, its index and its response columns, if they do not exist yet:
     * three statements, separated by semicolons, the two migration resources' for the default table.
     *
     * @param table the table to create
     * @return the DDL
     * @throws IllegalArgumentException when the table is null
     */
    public static String createTableSql(InboxTable table) {
        if (table == null) {
            throw new IllegalArgumentException("Inbox table must not be null");
        }
        return Sql.forTable(Sql.CREATE_TABLE, table) + Sql.forTable(Sql.ADD_RESPONSE_COLUMNS, table);
    }

    /**
     * Returns the DDL that adds the columns {@link Idempotent @Idempotent} stores responses in to an existing table,
     * unless they exist: one statement. It changes no row, and takes a moment's exclusive lock on the table.
     *
     * @param table the table
     * @return the DDL
     * @throws IllegalArgumentException when the table is null
     */
    public static String addResponseColumnsSql(InboxTable table) {
        if (table == null) {
            throw new IllegalArgumentException("Inbox table must not be null");
        }
        return Sql.forTable(Sql.ADD_RESPONSE_COLUMNS, table);
    }
}
