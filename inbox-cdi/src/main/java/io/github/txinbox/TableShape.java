package io.github.txinbox;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What the inbox needs of its table, checked against the description {@link Sql#DESCRIBE_TABLE} returns: the three
 * columns with their types, a key that compares bytes, not null, and the primary key (scope, message_id). Other
 * columns and indexes are the owner's business.
 *
 * <p>A key column compares bytes under {@code "C"} or {@code "POSIX"}, and under {@code "default"} where the
 * database's own collation does: libc's {@code C} or {@code POSIX}, or any locale of the builtin provider
 * (PostgreSQL 17+: {@code C}, {@code C.UTF-8}, and 18's {@code PG_UNICODE_FAST}, which compare by code point, that is
 * by the bytes of UTF-8, without a collation library). libc's {@code C.UTF-8} is not byte-wise for this check: it
 * goes through the C library's {@code strcoll}, whose order of it has changed between glibc versions.
 */
final class TableShape {

    private static final Map<String, String> COLUMNS = new LinkedHashMap<>();

    static {
        COLUMNS.put("scope", "text COLLATE \"C\" NOT NULL");
        COLUMNS.put("message_id", "text COLLATE \"C\" NOT NULL");
        COLUMNS.put("processed_at", "timestamp with time zone NOT NULL");
    }

    private static final String PRIMARY_KEY = "scope,message_id";

    private static final String C = " COLLATE \"C\"";

    /** PostgreSQL's other name for the byte-wise collation. */
    private static final String POSIX = " COLLATE \"POSIX\"";

    /** The column's collation is the database's, which the description gives last. */
    private static final String DEFAULT = " COLLATE \"default\"";

    /** The libc locales that PostgreSQL compares with {@code memcmp}, without the C library. */
    private static final Set<String> BYTEWISE_LIBC = Set.of("C", "POSIX");

    private static final String WHY_BYTES = "the key compares bytes, so that no collation library can reorder its "
            + "index or take two different ids for one";

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
        int lastBar = description.lastIndexOf('|');
        int bar = description.lastIndexOf('|', lastBar - 1);
        String databaseCollation = description.substring(lastBar + 1);
        boolean defaultIsBytewise = bytewise(databaseCollation);
        Map<String, String> actual = columns(description);
        List<String> problems = new ArrayList<>();
        COLUMNS.forEach((name, expected) -> {
            String found = actual.get(name);
            if (found == null) {
                problems.add("it has no column " + name + " (" + expected + ")");
                return;
            }
            String compared = found.replace(POSIX, C);
            if (defaultIsBytewise) {
                compared = compared.replace(DEFAULT, C);
            }
            if (!compared.equals(expected)) {
                boolean onlyCollation = withoutCollation(found).equals(withoutCollation(expected));
                String why = !onlyCollation ? ""
                        : " (" + WHY_BYTES + (found.contains(DEFAULT) ? "; \"default\" is the database's collation, "
                                + described(databaseCollation) + ", which does not compare bytes" : "") + ")";
                problems.add("its column " + name + " is " + found + ", not " + expected + why);
            }
        });
        String primaryKey = description.substring(bar + 1, lastBar);
        if (!primaryKey.equals(PRIMARY_KEY)) {
            problems.add(primaryKey.isEmpty()
                    ? "it has no primary key (the inbox needs (scope, message_id))"
                    : "its primary key is (" + primaryKey.replace(",", ", ") + "), not (scope, message_id)");
        }
        return problems;
    }

    /** The columns of a description, by name: type, collation and {@code NOT NULL}. */
    private static Map<String, String> columns(String description) {
        int lastBar = description.lastIndexOf('|');
        int bar = description.lastIndexOf('|', lastBar - 1);
        Map<String, String> actual = new LinkedHashMap<>();
        for (String column : description.substring(0, bar).split(";")) {
            int space = column.indexOf(' ');
            if (space > 0) {
                actual.put(column.substring(0, space), column.substring(space + 1));
            }
        }
        return actual;
    }

    /**
     * Whether the database's collation, as the description gives it ({@code <provider> <locale>}), compares bytes.
     *
     * @param collation {@code c}, {@code i} or {@code b} (libc, ICU, builtin), a space and the locale
     */
    static boolean bytewise(String collation) {
        int space = collation.indexOf(' ');
        String provider = space < 0 ? collation : collation.substring(0, space);
        String locale = space < 0 ? "" : collation.substring(space + 1);
        return switch (provider) {
            case "c" -> BYTEWISE_LIBC.contains(locale);
            case "b" -> true;
            default -> false;
        };
    }

    private static String described(String collation) {
        int space = collation.indexOf(' ');
        String provider = space < 0 ? collation : collation.substring(0, space);
        String locale = space < 0 ? "" : collation.substring(space + 1);
        String name = switch (provider) {
            case "c" -> "libc";
            case "i" -> "ICU";
            case "b" -> "builtin";
            default -> "provider " + provider;
        };
        return name + " locale \"" + locale + "\"";
    }

    private static String withoutCollation(String column) {
        return column.replaceAll(" COLLATE \\S+", "");
    }
}
