package io.github.txinbox.examples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.txinbox.Inbox;
import io.github.txinbox.InboxSettings;
import io.github.txinbox.http.IdempotentSettings;
import java.io.IOException;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * What the user docs say of the project itself is so: every setting the library reads has its row in
 * docs/settings.md with its default, and that table names no other; every message the library gives has its entry in
 * docs/troubleshooting.md; every test class the docs name exists; every leg the docs name is one that {@code .ci/run}
 * prints.
 */
class DocsFactsTest {

    private static final Path ROOT = DocPages.ROOT;

    /**
     * A test class by the project's names, {@code ...IT}, {@code ...Test} or {@code ...Benchmark}; not a resource
     * named like one ({@code datasources/InboxIT}, {@code xa-data-source=InboxIT}).
     */
    private static final Pattern TEST_CLASS = Pattern.compile(
            "(?<![/=.\\w])[A-Z][a-z][A-Za-z0-9]*(?:IT|Test|Benchmark)\\b");
    /** A setting's name in a cell of settings.md: {@code txinbox.} and dotted, dashed lower-case words. */
    private static final Pattern SETTING = Pattern.compile("`(txinbox\\.[a-z][a-z.-]*[a-z])");
    /** A leg of {@code .ci/run}: the name it passes to {@code leg_line}. */
    private static final Pattern CI_LEG = Pattern.compile("leg_line ([a-z0-9-]+)");
    /** Leg names in code spans next to the word: "the `a` and `b` legs", "legs `a`, `b` and `c`", "leg `a`". */
    private static final String NAMES = "`[^`\\s]+`(?:(?:,| and| or|,? and|,? or) `[^`\\s]+`)*";
    private static final Pattern LEGS_AFTER = Pattern.compile("\\blegs? (" + NAMES + ")");
    private static final Pattern LEGS_BEFORE = Pattern.compile("(" + NAMES + ") legs?\\b");
    private static final Pattern CODE_SPAN = Pattern.compile("`([^`]+)`");
    /** Where the library gives a message: an exception it creates, or a WARNING or SEVERE line it logs. */
    private static final Pattern MESSAGE_SITE = Pattern.compile("new\\s+\\w+(?:Exception|Error)\\s*\\("
            + "|LOG\\.(?:log\\s*\\(\\s*Level\\.(?:WARNING|SEVERE)|warning|severe)\\s*\\(");
    /** A Java string literal, and the {@code " + "} that joins two of them. */
    private static final Pattern LITERAL = Pattern.compile("\"((?:[^\"\\\\]|\\\\.)*)\"");
    private static final Pattern JOINED = Pattern.compile("\"\\s*\\+\\s*\"");
    /** A message's fixed text shorter than this (a separator such as {@code "; "}) is not looked for. */
    private static final int SHORTEST_TEXT = 12;

    @Test
    void everySettingTheLibraryReadsIsInSettingsMdWithItsDefault() throws Exception {
        InboxSettings defaults = InboxSettings.DEFAULTS;
        // Each setting, with its default as the page writes it; a new setting fails here until it has both.
        Map<String, String> expected = Map.of(
                InboxSettings.TABLE, "`" + defaults.table().qualifiedName() + "`",
                InboxSettings.TABLE_CHECK, "`" + defaults.tableCheck() + "`",
                InboxSettings.KEY, "`" + (defaults.defaultKey().isEmpty() ? Inbox.JMS_MESSAGE_ID
                        : defaults.defaultKey()) + "`",
                InboxSettings.SCOPE_BYTES, defaults.maxScopeBytes() + " bytes",
                InboxSettings.MESSAGE_ID_BYTES, defaults.maxMessageIdBytes() + " bytes",
                InboxSettings.PREPARED_TRANSACTION_AGE, "`" + defaults.preparedTransactionAge() + "`",
                InboxSettings.CLAIM_MAX_WAIT, "`" + defaults.claimMaxWait() + "`",
                IdempotentSettings.MAX_RESPONSE_BYTES, String.format(Locale.ROOT, "%,d bytes",
                        IdempotentSettings.DEFAULTS.maxResponseBytes()).replace(',', ' '));
        assertEquals(new TreeSet<>(expected.keySet()), settingNames(),
                "the settings of InboxSettings and IdempotentSettings against those this test knows the defaults of");

        Map<String, String> rows = new TreeMap<>();
        for (String line : Files.readAllLines(ROOT.resolve("docs/settings.md"))) {
            String[] cells = line.split("\\|");
            if (line.startsWith("|") && cells.length >= 4) {
                Matcher name = SETTING.matcher(cells[3]);
                while (name.find()) {
                    rows.putIfAbsent(name.group(1), cells[2].strip());
                }
            }
        }
        List<String> problems = new ArrayList<>();
        expected.forEach((name, value) -> {
            String row = rows.get(name);
            if (row == null) {
                problems.add(name + ": no row of docs/settings.md's table names it");
            } else if (!row.startsWith(value)) {
                problems.add(name + ": docs/settings.md gives the default as \"" + row + "\", the code as " + value);
            }
        });
        rows.keySet().stream().filter(name -> !expected.containsKey(name))
                .forEach(name -> problems.add(name + ": docs/settings.md names a setting the library does not read"));
        assertTrue(problems.isEmpty(), String.join("\n", problems));
    }

    /**
     * Every fixed text of a message (the literals between the values it names) is on the page, where the values are
     * written as {@code <...>}. A message built away from where it is thrown (a table's problems, say) is not seen.
     */
    @Test
    void everyMessageOfTheLibraryIsInTroubleshootingMd() throws IOException {
        String page = Files.readString(ROOT.resolve("docs/troubleshooting.md")).replaceAll("\\s+", " ");
        List<String> problems = new ArrayList<>();
        int messages = 0;
        List<Path> sources = javaSources(ROOT.resolve("inbox-cdi/src/main/java"),
                ROOT.resolve("inbox-http/src/main/java"), ROOT.resolve("inbox-ejb/src/main/java"));
        for (Path source : sources) {
            String code = Files.readString(source);
            Matcher site = MESSAGE_SITE.matcher(code);
            while (site.find()) {
                Matcher literal = LITERAL.matcher(JOINED.matcher(arguments(code, site.end())).replaceAll(""));
                boolean counted = false;
                while (literal.find()) {
                    String text = literal.group(1).replace("\\\"", "\"").replace("\\'", "'").strip()
                            .replaceAll("\\s+", " ");
                    if (text.length() < SHORTEST_TEXT) {
                        continue;
                    }
                    messages += counted ? 0 : 1;
                    counted = true;
                    if (!page.contains(text)) {
                        problems.add(DocPages.name(source) + ":" + (code.substring(0, site.start()).lines().count() + 1)
                                + ": \"" + text + "\" is not in docs/troubleshooting.md");
                    }
                }
            }
        }
        assertTrue(messages >= 30, "only " + messages + " messages found in the library's sources");
        assertTrue(problems.isEmpty(), String.join("\n", problems));
    }

    /**
     * troubleshooting.md's table of exceptions has a row for each public exception class of the library, with the
     * class it really extends, and none for a class that is gone.
     */
    @Test
    void everyExceptionOfTheLibraryIsInTheTableWithItsBaseClass() throws IOException {
        Pattern declared = Pattern.compile("public class (\\w+Exception) extends ([\\w.]+)");
        Map<String, String> expected = new TreeMap<>();
        for (Path source : javaSources(ROOT.resolve("inbox-cdi/src/main/java"), ROOT.resolve("inbox-http/src/main/java"),
                ROOT.resolve("inbox-ejb/src/main/java"))) {
            Matcher type = declared.matcher(Files.readString(source));
            if (type.find()) {
                expected.put(type.group(1), type.group(2).replaceAll(".*\\.", ""));
            }
        }
        assertTrue(expected.size() >= 10, "only " + expected.keySet() + " found in the library's sources");
        Pattern row = Pattern.compile("^\\| `(\\w+Exception)`[^|]*\\| `([\\w.]+)` \\|");
        Map<String, String> rows = new TreeMap<>();
        for (String line : Files.readAllLines(ROOT.resolve("docs/troubleshooting.md"))) {
            Matcher cells = row.matcher(line);
            if (cells.find()) {
                rows.put(cells.group(1), cells.group(2).replaceAll(".*\\.", ""));
            }
        }
        assertEquals(expected, rows, "the library's exceptions and what they extend, against troubleshooting.md's "
                + "table of exceptions");
    }

    @Test
    void everyTestClassTheDocsNameExists() throws IOException {
        Set<String> classes;
        try (Stream<Path> files = Files.walk(ROOT)) {
            classes = files.filter(file -> file.toString().endsWith(".java"))
                    .filter(file -> !ROOT.relativize(file).toString().contains("target/"))
                    .map(file -> file.getFileName().toString().replaceFirst("\\.java$", ""))
                    .collect(Collectors.toSet());
        }
        List<String> problems = new ArrayList<>();
        int named = 0;
        for (Path page : DocPages.all()) {
            List<String> lines = Files.readAllLines(page);
            for (int i = 0; i < lines.size(); i++) {
                Matcher test = TEST_CLASS.matcher(lines.get(i));
                while (test.find()) {
                    named++;
                    if (!classes.contains(test.group())) {
                        problems.add(DocPages.name(page) + ":" + (i + 1) + ": no class " + test.group());
                    }
                }
            }
        }
        assertTrue(named >= 50, "only " + named + " test names found: are the pages where " + ROOT + " says?");
        assertTrue(problems.isEmpty(), String.join("\n", problems));
    }

    /**
     * The table of what each leg runs, in docs/compatibility.md, is the one the build generates ({@link TestedWhere})
     * from .ci/run, the integration tests' POM and the test classes' tags. With {@code -Dtxinbox.docs.write=true} the
     * test writes the table instead of comparing it.
     */
    @Test
    void theTableOfWhatEachLegRunsIsTheBuilds() throws Exception {
        if (Boolean.getBoolean("txinbox.docs.write")) {
            TestedWhere.main(new String[0]);
        }
        String page = Files.readString(TestedWhere.PAGE);
        assertEquals(TestedWhere.table(), TestedWhere.checkedIn(page), "docs/compatibility.md's table of what each leg "
                + "runs differs from what the build says; write it with: mvn -B test -pl docs-examples "
                + "-Dtest=DocsFactsTest -Dtxinbox.docs.write=true");
    }

    /**
     * Which test runs on which leg has one home, the generated table in docs/compatibility.md: no other page names a
     * test class and a leg on one line, where the next change of a leg's profiles would leave it untrue.
     */
    @Test
    void onlyTheGeneratedTableSaysWhichLegRunsATest() throws IOException {
        Set<String> legs = ciLegs();
        List<String> problems = new ArrayList<>();
        for (Path page : DocPages.all()) {
            if (page.equals(TestedWhere.PAGE.normalize())) {
                continue;
            }
            List<String> lines = Files.readAllLines(page);
            for (int i = 0; i < lines.size(); i++) {
                String line = lines.get(i);
                Matcher test = TEST_CLASS.matcher(line);
                if (!test.find()) {
                    continue;
                }
                Matcher span = CODE_SPAN.matcher(line);
                while (span.find()) {
                    if (legs.contains(span.group(1))) {
                        problems.add(DocPages.name(page) + ":" + (i + 1) + ": names " + test.group() + " and the leg "
                                + span.group(1) + "; link the table in docs/compatibility.md instead");
                    }
                }
            }
        }
        assertTrue(problems.isEmpty(), String.join("\n", problems));
    }

    /** A table row with more or fewer cells than its header shows its last cells in the wrong column, or not at all. */
    @Test
    void everyTableRowHasItsHeadersCells() throws IOException {
        List<String> problems = new ArrayList<>();
        int rows = 0;
        for (Path page : DocPages.all()) {
            List<String> lines = Files.readAllLines(page);
            int header = -1;
            for (int i = 0; i < lines.size(); i++) {
                String line = lines.get(i).strip();
                if (!line.startsWith("|")) {
                    header = -1;
                } else if (header < 0) {
                    header = cells(line);
                } else {
                    rows++;
                    if (cells(line) != header) {
                        problems.add(DocPages.name(page) + ":" + (i + 1) + ": " + cells(line) + " cells under a header"
                                + " of " + header);
                    }
                }
            }
        }
        assertTrue(rows >= 100, "only " + rows + " table rows found: are the pages where " + ROOT + " says?");
        assertTrue(problems.isEmpty(), String.join("\n", problems));
    }

    /** The cells of a table row: its bars outside code spans, less the one that closes it. */
    private static int cells(String row) {
        int bars = 0;
        boolean code = false;
        for (int i = 0; i < row.length(); i++) {
            char c = row.charAt(i);
            if (c == '`') {
                code = !code;
            } else if (c == '|' && !code && (i == 0 || row.charAt(i - 1) != '\\')) {
                bars++;
            }
        }
        return bars - 1;
    }

    @Test
    void everyLegTheDocsNameIsOneCiPrints() throws IOException {
        Set<String> printed = ciLegs();

        List<String> problems = new ArrayList<>();
        for (Path page : DocPages.all()) {
            List<String> lines = Files.readAllLines(page);
            boolean legTable = false;
            for (int i = 0; i < lines.size(); i++) {
                String line = lines.get(i);
                List<String> names = new ArrayList<>();
                for (Pattern pattern : List.of(LEGS_AFTER, LEGS_BEFORE)) {
                    Matcher spans = pattern.matcher(line);
                    while (spans.find()) {
                        Matcher span = CODE_SPAN.matcher(spans.group(1));
                        while (span.find()) {
                            names.add(span.group(1));
                        }
                    }
                }
                // The legs' table in compatibility.md: its first column is the leg.
                legTable = line.startsWith("| leg |") || legTable && line.startsWith("|");
                if (legTable && !line.startsWith("| leg |") && !line.startsWith("|---")) {
                    names.add(line.split("\\|")[1].strip());
                }
                for (String name : names) {
                    if (!printed.contains(name)) {
                        problems.add(DocPages.name(page) + ":" + (i + 1) + ": leg " + name + ", which .ci/run does "
                                + "not print (it prints " + printed + ")");
                    }
                }
            }
        }
        assertTrue(problems.isEmpty(), String.join("\n", problems));
    }

    /** The legs {@code .ci/run} prints a line for; it fails when it finds fewer than five. */
    private static Set<String> ciLegs() throws IOException {
        Set<String> legs = new TreeSet<>();
        Matcher leg = CI_LEG.matcher(Files.readString(ROOT.resolve(".ci/run")));
        while (leg.find()) {
            legs.add(leg.group(1));
        }
        assertTrue(legs.size() >= 5, ".ci/run prints only " + legs);
        return legs;
    }

    private static List<Path> javaSources(Path... roots) throws IOException {
        List<Path> sources = new ArrayList<>();
        for (Path root : roots) {
            try (Stream<Path> files = Files.walk(root)) {
                files.filter(file -> file.toString().endsWith(".java")).sorted().forEach(sources::add);
            }
        }
        return sources;
    }

    /** The arguments of the call whose parenthesis opens just before {@code start}, up to the one that closes it. */
    private static String arguments(String code, int start) {
        int depth = 1;
        boolean inString = false;
        int at = start;
        for (; at < code.length() && depth > 0; at++) {
            char c = code.charAt(at);
            if (inString) {
                if (c == '\\') {
                    at++;
                } else if (c == '"') {
                    inString = false;
                }
            } else if (c == '"') {
                inString = true;
            } else if (c == '\'') {
                // A char literal such as ')' or '"': skip it whole, escaped or not.
                at = code.indexOf('\'', at + (code.charAt(at + 1) == '\\' ? 3 : 2));
            } else if (c == '(' || c == ')') {
                depth += c == '(' ? 1 : -1;
            }
        }
        return code.substring(start, at - 1);
    }

    /** The names of the settings, the String constants of InboxSettings that begin with {@code txinbox.}. */
    private static Set<String> settingNames() throws IllegalAccessException {
        Set<String> names = new TreeSet<>();
        for (Class<?> settings : List.of(InboxSettings.class, IdempotentSettings.class)) {
            for (Field field : settings.getFields()) {
                if (Modifier.isStatic(field.getModifiers()) && field.getType() == String.class
                        && field.get(null) instanceof String name && name.startsWith("txinbox.")) {
                    names.add(name);
                }
            }
        }
        return names;
    }
}
