package io.github.txinbox.bench;

import static org.junit.jupiter.api.Assertions.assertFalse;

import io.github.txinbox.it.app.TestDatabase;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;

/**
 * Runs last (the benchmarks profile orders classes by {@link Order}): collects the figures the benchmarks recorded
 * and writes them as a Markdown table to {@code target/benchmarks.md}.
 */
@Order(100)
class ReportBenchmark {

    @Test
    void writeTheTable() throws Exception {
        Results.prepare();
        List<String> lines = new ArrayList<>();
        lines.add("| item | measure | baseline | measured | ratio | target | met | runs |");
        lines.add("|---|---|---|---|---|---|---|---|");
        try (Connection connection = TestDatabase.connect();
                Statement statement = connection.createStatement();
                ResultSet rows = statement.executeQuery("SELECT item, measure, baseline, measured, ratio, target, "
                        + "runs FROM " + Results.TABLE + " ORDER BY item, ord")) {
            while (rows.next()) {
                double ratio = rows.getDouble("ratio");
                boolean hasRatio = !rows.wasNull();
                String target = rows.getString("target");
                lines.add("| " + rows.getString("item") + " | " + rows.getString("measure") + " | "
                        + rows.getString("baseline") + " | " + rows.getString("measured") + " | "
                        + (hasRatio ? String.format(Locale.ROOT, "%.2f", ratio) : "-") + " | " + target + " | "
                        + met(hasRatio, ratio, target) + " | " + rows.getString("runs") + " |");
            }
        }
        assertFalse(lines.size() == 2, "no benchmark recorded a figure");
        Path report = Path.of(System.getProperty("txinbox.it.workDir"), "benchmarks.md");
        Files.write(report, lines);
    }

    private static String met(boolean hasRatio, double ratio, String target) {
        if (!hasRatio || !target.matches("[<>]= [0-9.]+")) {
            return "-";
        }
        double bound = Double.parseDouble(target.substring(3));
        boolean met = target.startsWith("<=") ? ratio <= bound : ratio >= bound;
        return met ? "yes" : "no";
    }
}
