package io.github.txinbox.bench;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedFrame;
import jdk.jfr.consumer.RecordingFile;

/**
 * Splits the processor samples of a JFR recording of a benchmark by arm and by the library that did the work, the
 * server side of a benchmark's profile (docs/benchmarks.md, item 1). A sample belongs to the arm whose method is on
 * its stack; its library is that of its topmost frame outside the JDK, so that a {@code HashMap} lookup counts for the
 * library that made it. Samples under a method named {@code warmUp} are left out. JDK only, so that it runs as a
 * single source file:
 *
 * <pre>
 * java inbox-arquillian-tests/src/test/java/io/github/txinbox/bench/JfrSplit.java recording.jfr \
 *     ClaimCostBenchmark claims rawInserts
 * </pre>
 *
 * <p>Prints a Markdown table: a row per library, a column per arm, each cell the library's share of the arm's samples.
 */
public final class JfrSplit {

    /** Libraries by the start of their class names, the first match wins; the label groups them. */
    private static final String[][] LIBRARIES = {
        {"io.github.txinbox.bench.", "the benchmark"},
        {"io.github.txinbox.", "txinbox"},
        {"org.hibernate.", "Hibernate"},
        {"org.postgresql.", "PostgreSQL JDBC driver"},
        {"org.jboss.weld.", "Weld (CDI, interceptors)"},
        {"com.sun.enterprise.transaction.", "transaction manager"},
        {"com.sun.jts.", "transaction manager"},
        {"com.sun.enterprise.resource.", "connection pool"},
        {"com.sun.gjc.", "connection pool"},
    };

    private JfrSplit() {
    }

    /**
     * Prints the table.
     *
     * @param args the recording, the benchmark's simple class name, then the arms' method names
     * @throws IOException when the recording cannot be read
     */
    public static void main(String[] args) throws IOException {
        if (args.length < 3) {
            System.err.println("usage: JfrSplit recording.jfr BenchmarkClass armMethod...");
            System.exit(2);
        }
        String benchmark = args[1];
        List<String> arms = List.of(args).subList(2, args.length);
        Map<String, Map<String, Integer>> counts = new LinkedHashMap<>();
        Map<String, Integer> totals = new LinkedHashMap<>();
        for (RecordedEvent event : RecordingFile.readAllEvents(Path.of(args[0]))) {
            if (!event.getEventType().getName().equals("jdk.ExecutionSample") || event.getStackTrace() == null) {
                continue;
            }
            List<RecordedFrame> frames = event.getStackTrace().getFrames();
            String arm = arm(frames, benchmark, arms);
            if (arm == null || frames.stream().anyMatch(frame -> frame.getMethod().getName().equals("warmUp"))) {
                continue;
            }
            String library = library(frames);
            counts.computeIfAbsent(library, key -> new LinkedHashMap<>()).merge(arm, 1, Integer::sum);
            totals.merge(arm, 1, Integer::sum);
        }
        StringBuilder table = new StringBuilder("| library |");
        arms.forEach(arm -> table.append(' ').append(arm).append(" (").append(totals.getOrDefault(arm, 0))
                .append(" samples) |"));
        table.append("\n|---|").append("---|".repeat(arms.size())).append('\n');
        List<String> libraries = new ArrayList<>(counts.keySet());
        libraries.sort((a, b) -> Integer.compare(sum(counts.get(b)), sum(counts.get(a))));
        for (String library : libraries) {
            table.append("| ").append(library).append(" |");
            for (String arm : arms) {
                int total = totals.getOrDefault(arm, 0);
                int count = counts.get(library).getOrDefault(arm, 0);
                table.append(String.format(Locale.ROOT, " %.0f %% |", total == 0 ? 0.0 : 100.0 * count / total));
            }
            table.append('\n');
        }
        System.out.print(table);
    }

    private static int sum(Map<String, Integer> byArm) {
        return byArm.values().stream().mapToInt(Integer::intValue).sum();
    }

    /** The arm whose method is on the stack, the innermost first; {@code null} when none is. */
    private static String arm(List<RecordedFrame> frames, String benchmark, List<String> arms) {
        for (RecordedFrame frame : frames) {
            String type = frame.getMethod().getType().getName();
            if (type.endsWith("." + benchmark) && arms.contains(frame.getMethod().getName())) {
                return frame.getMethod().getName();
            }
        }
        return null;
    }

    /** The library of the topmost frame outside the JDK. */
    private static String library(List<RecordedFrame> frames) {
        for (RecordedFrame frame : frames) {
            String type = frame.getMethod().getType().getName();
            if (type.startsWith("java.") || type.startsWith("jdk.") || type.startsWith("sun.")
                    || type.startsWith("javax.") || type.startsWith("jakarta.")) {
                continue;
            }
            for (String[] library : LIBRARIES) {
                if (type.startsWith(library[0])) {
                    return library[1];
                }
            }
            return "the application server, other";
        }
        return "the JDK alone";
    }
}
