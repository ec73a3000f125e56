package io.github.txinbox.bench;

import io.github.txinbox.it.app.TestDatabase;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * Where the benchmarks leave their figures: a table in the test database, which both the server (in-container
 * benchmarks) and the client ({@link ReportBenchmark}) reach. Also the small statistics they share.
 */
public final class Results {

    /** The schema of the benchmarks' tables. */
    public static final String SCHEMA = "txinbox_bench";

    static final String TABLE = SCHEMA + ".result";

    private Results() {
    }

    /** Creates the schema and the results table if they do not exist; every benchmark's deployment calls it. */
    public static void prepare() {
        TestDatabase.update("CREATE SCHEMA IF NOT EXISTS " + SCHEMA);
        TestDatabase.update("CREATE TABLE IF NOT EXISTS " + TABLE + " (ord bigserial PRIMARY KEY, item text NOT NULL, "
                + "measure text NOT NULL, baseline text NOT NULL, measured text NOT NULL, ratio double precision, "
                + "target text NOT NULL, runs text NOT NULL)");
    }

    /**
     * Records one figure.
     *
     * @param item     the benchmark's item, as docs/benchmarks.md numbers them
     * @param measure  what was measured, and against what
     * @param baseline the baseline's figure, with its unit
     * @param measured the figure, with its unit
     * @param ratio    measured over baseline, in the sense the target states; {@code null} for a count
     * @param target   the target, such as {@code <= 1.10}, or {@code -} for none
     * @param runs     what the figures are medians of
     */
    public static void record(String item, String measure, String baseline, String measured, Double ratio,
            String target, String runs) {
        TestDatabase.update("INSERT INTO " + TABLE + " (item, measure, baseline, measured, ratio, target, runs) "
                + "VALUES (?, ?, ?, ?, ?, ?, ?)", item, measure, baseline, measured, ratio, target, runs);
    }

    /**
     * The ratios of two arms' rounds, round by round: the measured arm's value over the baseline's.
     *
     * @param baseline the baseline's value per round
     * @param measured the measured arm's value per round, in the same order
     * @return one ratio per round
     */
    public static List<Double> roundRatios(List<Double> baseline, List<Double> measured) {
        List<Double> ratios = new java.util.ArrayList<>();
        for (int i = 0; i < baseline.size(); i++) {
            ratios.add(measured.get(i) / baseline.get(i));
        }
        return ratios;
    }

    /** The median of some values. */
    public static double median(List<Double> values) {
        double[] sorted = values.stream().mapToDouble(Double::doubleValue).sorted().toArray();
        int n = sorted.length;
        return n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
    }

    /** The p-th percentile (nearest rank) of latencies in nanoseconds, in milliseconds. */
    public static double percentileMillis(long[] nanos, double p) {
        long[] sorted = nanos.clone();
        Arrays.sort(sorted);
        int rank = (int) Math.ceil(p / 100.0 * sorted.length);
        return sorted[Math.max(0, Math.min(sorted.length - 1, rank - 1))] / 1e6;
    }

    /** A figure with its unit, to three significant places. */
    public static String format(double value, String unit) {
        String number = value >= 100 ? String.format(Locale.ROOT, "%.0f", value)
                : value >= 10 ? String.format(Locale.ROOT, "%.1f", value)
                : String.format(Locale.ROOT, "%.3f", value);
        return number + " " + unit;
    }

    /** Collects the figures of repeated rounds. */
    public static final class Rounds {
        private final List<Double> values = new ArrayList<>();

        public void add(double value) {
            values.add(value);
        }

        public double median() {
            return Results.median(values);
        }

        public int size() {
            return values.size();
        }
    }
}
