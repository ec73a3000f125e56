package io.github.txinbox.bench;

import io.github.txinbox.it.app.TestDatabase;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * What each statement cost PostgreSQL's executor, from {@code pg_stat_statements}, which the benchmarks' embedded
 * server loads (the system property {@code txinbox.it.postgres.statements}): the PostgreSQL side of a profile, the
 * time spent inside the server per call of each statement, without the network, the driver or the application
 * server.
 */
final class Statements {

    /** One statement's figures. */
    record Cost(String query, long calls, double meanMicros) {

        /** The statement's first words, whitespace folded, for a table cell. */
        String head(int length) {
            String folded = query.replaceAll("\\s+", " ").trim();
            return folded.length() <= length ? folded : folded.substring(0, length) + "...";
        }

        String describe() {
            return String.format(Locale.ROOT, "%s: %.1f µs per call (%d calls)", head(60), meanMicros, calls);
        }
    }

    private Statements() {
    }

    /**
     * Empties the statistics, so that what follows counts alone.
     *
     * @return whether the server keeps statistics (a server the user named may not)
     */
    static boolean reset() {
        try (Connection connection = TestDatabase.connect(); Statement statement = connection.createStatement()) {
            statement.execute("CREATE EXTENSION IF NOT EXISTS pg_stat_statements");
            statement.execute("SELECT pg_stat_statements_reset()");
            return true;
        } catch (SQLException e) {
            return false;
        }
    }

    /**
     * The statements run since the last {@link #reset()} at least {@code minCalls} times, the costliest in all
     * first.
     *
     * @param minCalls the fewest calls a statement needs to be listed
     * @return the statements
     */
    static List<Cost> since(long minCalls) {
        List<Cost> costs = new ArrayList<>();
        try (Connection connection = TestDatabase.connect();
                PreparedStatement select = connection.prepareStatement("SELECT query, calls, mean_exec_time "
                        + "FROM pg_stat_statements WHERE calls >= ? AND dbid = (SELECT oid FROM pg_database "
                        + "WHERE datname = current_database()) ORDER BY total_exec_time DESC")) {
            select.setLong(1, minCalls);
            try (ResultSet rows = select.executeQuery()) {
                while (rows.next()) {
                    costs.add(new Cost(rows.getString(1), rows.getLong(2), rows.getDouble(3) * 1000));
                }
            }
        } catch (SQLException e) {
            throw new IllegalStateException("pg_stat_statements could not be read", e);
        }
        return costs;
    }

    /**
     * The claim's statement ({@code Sql.CLAIM}): an INSERT whose RETURNING puts the lock_timeout back.
     *
     * @param costs the statements
     * @return the statement, or {@code null}
     */
    static Cost claim(List<Cost> costs) {
        return find(costs, "insert into", "returning set_config");
    }

    /**
     * The marker's bare {@code INSERT ... VALUES ... ON CONFLICT DO NOTHING} that the benchmarks' floors write by hand.
     *
     * @param costs the statements
     * @return the statement, or {@code null}
     */
    static Cost bareMarkerInsert(List<Cost> costs) {
        return find(costs, "insert into", "values", "do nothing");
    }

    /**
     * The first statement whose text holds all the fragments, in any case. {@code pg_stat_statements} shows a
     * statement's constants as parameters ({@code $4}), so fragments are taken from its words, not its literals.
     *
     * @param costs     the statements
     * @param fragments what its text holds
     * @return the statement, or {@code null}
     */
    static Cost find(List<Cost> costs, String... fragments) {
        for (Cost cost : costs) {
            boolean all = true;
            String query = cost.query().toLowerCase(Locale.ROOT);
            for (String fragment : fragments) {
                all &= query.contains(fragment.toLowerCase(Locale.ROOT));
            }
            if (all) {
                return cost;
            }
        }
        return null;
    }
}
