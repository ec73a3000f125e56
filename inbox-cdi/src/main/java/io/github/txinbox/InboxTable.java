package io.github.txinbox;

import java.util.Locale;
import java.util.regex.Pattern;

/**
 * The table that holds the inbox markers, optionally qualified by a schema.
 *
 * <p>Each part must be a plain SQL identifier: a letter or underscore followed by letters, digits, underscores or
 * dollar signs, at most {@value #MAX_IDENTIFIER_LENGTH} characters. Like PostgreSQL does with unquoted identifiers,
 * the parts are folded to lower case; the SQL that txinbox issues then quotes them. Anything else (quotes, spaces,
 * semicolons, comments) is refused, so a table name taken from configuration can never change the SQL around it.
 *
 * <p>The default is {@link #DEFAULT}, the table {@code inbox} on the connection's search path. To use another
 * table, produce an {@code InboxTable} as a CDI bean in the application:
 *
 * <pre>{@code
 * @Produces
 * InboxTable inboxTable() {
 *     return InboxTable.of("messaging.inbox");
 * }
 * }</pre>
 *
 * @param schema the schema, or {@code null} to use the connection's search path
 * @param name   the table name
 */
public record InboxTable(String schema, String name) {

    // Before DEFAULT: the constructor of DEFAULT uses it.
    private static final Pattern IDENTIFIER = Pattern.compile("[A-Za-z_][A-Za-z0-9_$]*");

    /** The longest identifier PostgreSQL keeps whole (NAMEDATALEN - 1); longer ones it would silently truncate. */
    public static final int MAX_IDENTIFIER_LENGTH = 63;

    /** The default table: {@code inbox}, on the connection's search path. */
    public static final InboxTable DEFAULT = new InboxTable(null, "inbox");

    /**
     * Checks and folds both parts.
     *
     * @throws IllegalArgumentException when the name is missing, or either part is not a plain SQL identifier
     */
    public InboxTable {
        if (name == null) {
            throw new IllegalArgumentException("Inbox table name must not be null");
        }
        schema = schema == null ? null : identifier("schema", schema);
        name = identifier("table name", name);
    }

    /**
     * Parses a table name as written in SQL without quotes: {@code table} or {@code schema.table}.
     *
     * @param qualifiedName the name, such as {@code "inbox"} or {@code "messaging.inbox"}
     * @return the table
     * @throws IllegalArgumentException when the name is null, has more than one dot, or a part is not a plain SQL
     *                                  identifier
     */
    public static InboxTable of(String qualifiedName) {
        if (qualifiedName == null) {
            throw new IllegalArgumentException("Inbox table name must not be null");
        }
        int dot = qualifiedName.indexOf('.');
        if (dot < 0) {
            return new InboxTable(null, qualifiedName);
        }
        if (qualifiedName.indexOf('.', dot + 1) >= 0) {
            throw new IllegalArgumentException("Inbox table name '" + qualifiedName
                    + "' is not valid: expected 'table' or 'schema.table'");
        }
        return new InboxTable(qualifiedName.substring(0, dot), qualifiedName.substring(dot + 1));
    }

    /**
     * Returns the name as it is written without quotes, such as {@code messaging.inbox}.
     *
     * @return the schema-qualified name, or the bare table name when no schema is set
     */
    public String qualifiedName() {
        return schema == null ? name : schema + '.' + name;
    }

    /**
     * Returns the name quoted for SQL, such as {@code "messaging"."inbox"}.
     *
     * @return the quoted, schema-qualified name
     */
    public String quotedName() {
        return schema == null ? quote(name) : quote(schema) + '.' + quote(name);
    }

    /**
     * Returns the name of the index on {@code processed_at}, without a schema (PostgreSQL creates an index in its
     * table's schema), shortened if needed to stay within {@value #MAX_IDENTIFIER_LENGTH} characters.
     *
     * @return the index name, unquoted
     */
    String processedAtIndexName() {
        String suffix = "_processed_at_idx";
        String base = name.length() + suffix.length() > MAX_IDENTIFIER_LENGTH
                ? name.substring(0, MAX_IDENTIFIER_LENGTH - suffix.length())
                : name;
        return base + suffix;
    }

    static String quote(String identifier) {
        // Safe: identifier() admits no double quotes.
        return '"' + identifier + '"';
    }

    private static String identifier(String part, String value) {
        if (value.length() > MAX_IDENTIFIER_LENGTH) {
            throw new IllegalArgumentException("Inbox " + part + " '" + value + "' is " + value.length()
                    + " characters long; PostgreSQL keeps at most " + MAX_IDENTIFIER_LENGTH);
        }
        if (!IDENTIFIER.matcher(value).matches()) {
            throw new IllegalArgumentException("Inbox " + part + " '" + value
                    + "' is not a plain SQL identifier: use letters, digits, '_' or '$', starting with a letter or '_'");
        }
        return value.toLowerCase(Locale.ROOT);
    }

    @Override
    public String toString() {
        return qualifiedName();
    }
}
