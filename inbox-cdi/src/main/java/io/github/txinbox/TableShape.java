package io.github.txinbox;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What the inbox needs of its table, checked against the description {@link Sql#DESCRIBE_TABLE} returns: the three
 * columns with their types, the key's byte-wise collation, not null, and the primary key (scope, message_id). Other
 * columns and indexes are the owner's business.
 */
final class TableShape {

    private static final Map<String, String> COLUMNS = new LinkedHashMap<>();

    static {
        COLUMNS.put("scope", "text COLLATE \"C\" NOT NULL");
        COLUMNS.put("message_id", "text COLLATE \"C\" NOT NULL");
        COLUMNS.put("processed_at", "timestamp with time zone NOT NULL");
    }

    private static final String PRIMARY_KEY = "scope,message_id";

    /** PostgreSQL's other name for the byte-wise collation. */
    private static final String POSIX = " COLLATE \"POSIX\"";

    private static final String WHY_BYTES = " (the key compares bytes, so that no collation library can reorder its "
            + "index or take two different ids for one)";

    private TableShape() {
    }

    /**
     * Lists what is wrong with a table.
     *
     * @param description the table's description, or {@code null} when it does not exist
     * @return the problems, in words; empty when the table will do
     */
    static List<String> problems(String description) {
        if (description == null) {
            return List.of("it does not exist");
        }
        int bar = description.lastIndexOf('|');
        Map<String, String> actual = new LinkedHashMap<>();
        for (String column : description.substring(0, bar).split(";")) {
            int space = column.indexOf(' ');
            if (space > 0) {
                actual.put(column.substring(0, space), column.substring(space + 1));
            }
        }
        List<String> problems = new ArrayList<>();
        COLUMNS.forEach((name, expected) -> {
            String found = actual.get(name);
            if (found == null) {
                problems.add("it has no column " + name + " (" + expected + ")");
            } else if (!found.replace(POSIX, " COLLATE \"C\"").equals(expected)) {
                boolean onlyCollation = withoutCollation(found).equals(withoutCollation(expected));
                problems.add("its column " + name + " is " + found + ", not " + expected
                        + (onlyCollation ? WHY_BYTES : ""));
            }
        });
        String primaryKey = description.substring(bar + 1);
        if (!primaryKey.equals(PRIMARY_KEY)) {
            problems.add(primaryKey.isEmpty()
                    ? "it has no primary key (the inbox needs (scope, message_id))"
                    : "its primary key is (" + primaryKey.replace(",", ", ") + "), not (scope, message_id)");
        }
        return problems;
    }

    private static String withoutCollation(String column) {
        return column.replaceAll(" COLLATE \\S+", "");
    }
}
