package io.github.txinbox.it.app;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.hibernate.resource.jdbc.spi.StatementInspector;

/** Keeps the SQL that Hibernate prepares, as it goes to the driver, so that tests can EXPLAIN the real statements. */
public class RecordedSql implements StatementInspector {

    private static final long serialVersionUID = 1L;

    private static final List<String> STATEMENTS = new CopyOnWriteArrayList<>();

    @Override
    public String inspect(String sql) {
        if (STATEMENTS.size() < 1_000) {
            STATEMENTS.add(sql);
        }
        return sql;
    }

    /**
     * Returns the last recorded statement that starts with the prefix.
     *
     * @param prefix such as {@code "DELETE FROM"}
     * @return the statement
     * @throws AssertionError when none was recorded
     */
    public static String last(String prefix) {
        for (int i = STATEMENTS.size() - 1; i >= 0; i--) {
            String sql = STATEMENTS.get(i);
            if (sql.stripLeading().startsWith(prefix)) {
                return sql;
            }
        }
        throw new AssertionError("Hibernate prepared no statement starting with " + prefix);
    }
}
