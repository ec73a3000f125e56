package io.github.txinbox.examples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.github.txinbox.InboxRepository;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

/**
 * Every Java, XML and Gradle snippet of the user docs (README.md, CONTRIBUTING.md, ear-sample/README.md, docs/) is a
 * region of a source in this module, named by a {@code <!-- snippet: File#region -->} line just above it, and must
 * read exactly as that region; the Java sources compile with the build, the XML sources parse, and the coordinates
 * they name are the published modules at this version. A block of another language with such a line (the DDL, say)
 * is checked the same way, against a region or, without {@code #region}, the whole file, which may also be one the
 * library ships.
 */
class DocsSnippetsTest {

    private static final Path ROOT = DocPages.ROOT;
    private static final Path SOURCES = ROOT.resolve("docs-examples/src/main");
    /** The files the library ships, which a page may show whole. */
    private static final List<Path> SHIPPED = List.of(ROOT.resolve("inbox-cdi/src/main/resources"),
            ROOT.resolve("inbox-http/src/main/resources"));
    private static final String VERSION = System.getProperty("txinbox.version");
    /** The languages whose snippets must come from a source here. */
    private static final Set<String> CHECKED = Set.of("java", "xml", "kotlin", "groovy");
    /** The artifacts users depend on. */
    private static final Set<String> PUBLISHED = Set.of("inbox-bom", "inbox-cdi", "inbox-http", "inbox-ejb");

    private static final Pattern FENCE = Pattern.compile("^( *)```(\\w*)\\s*$");
    private static final Pattern MARKER = Pattern.compile("^ *<!-- snippet: ([\\w.-]+)(?:#([\\w-]+))? -->\\s*$");

    /** A fenced block of a page: where it starts, its language, its marker (or null) and its lines. */
    private record Block(Path page, int line, String language, Matcher marker, List<String> lines) {

        String where() {
            return ROOT.relativize(page) + ":" + line;
        }
    }

    @Test
    void everySnippetIsTheRegionOfItsSource() throws IOException {
        List<String> problems = new ArrayList<>();
        int checked = 0;
        for (Block block : blocks()) {
            if (block.marker() == null && !CHECKED.contains(block.language())) {
                continue;
            }
            if (block.marker() == null) {
                problems.add(block.where() + ": a " + block.language() + " block without a <!-- snippet: File#region -->"
                        + " line above it");
                continue;
            }
            String file = block.marker().group(1);
            String region = block.marker().group(2);
            Path source = source(file);
            if (source == null) {
                problems.add(block.where() + ": no source " + file + " under " + ROOT.relativize(SOURCES) + " or "
                        + SHIPPED.stream().map(ROOT::relativize).map(Path::toString).collect(Collectors.joining(", ")));
                continue;
            }
            List<String> lines = Files.readAllLines(source);
            List<String> expected = region == null ? lines : region(lines, region);
            if (expected == null) {
                problems.add(block.where() + ": " + file + " has no region " + region);
            } else if (!expected.equals(block.lines())) {
                problems.add(block.where() + ": differs from " + block.marker().group().strip() + "\n--- the page:\n"
                        + String.join("\n", block.lines()) + "\n--- the source:\n" + String.join("\n", expected));
            }
            checked++;
        }
        if (!problems.isEmpty()) {
            fail(problems.size() + " snippet(s) out of step with docs-examples:\n" + String.join("\n\n", problems));
        }
        assertTrue(checked >= 10, "only " + checked + " snippets found: are the pages where " + ROOT + " says?");
    }

    @Test
    void everyXmlSourceParses() throws Exception {
        try (Stream<Path> files = Files.walk(SOURCES.resolve("resources"))) {
            List<Path> xml = files.filter(f -> f.toString().endsWith(".xml")).toList();
            assertFalse(xml.isEmpty());
            for (Path file : xml) {
                parse(file);
            }
        }
    }

    @Test
    void theMavenCoordinatesAreThePublishedModulesAtThisVersion() throws Exception {
        NodeList dependencies = parse(SOURCES.resolve("resources/snippets/pom.xml")).getElementsByTagName("dependency");
        Set<String> named = new TreeSet<>();
        for (int i = 0; i < dependencies.getLength(); i++) {
            Element dependency = (Element) dependencies.item(i);
            assertEquals("io.github.txinbox", text(dependency, "groupId"));
            String artifact = text(dependency, "artifactId");
            assertTrue(PUBLISHED.contains(artifact), artifact + " is not a published module");
            String version = text(dependency, "version");
            if (version != null) {
                assertEquals(VERSION, version, artifact);
            }
            named.add(artifact);
        }
        assertEquals(PUBLISHED, named);
    }

    @Test
    void theGradleCoordinatesAreThePublishedModulesAtThisVersion() throws IOException {
        Matcher coordinates = Pattern.compile("\"io\\.github\\.txinbox:([\\w-]+)(?::([^\"]+))?\"")
                .matcher(Files.readString(SOURCES.resolve("resources/snippets/build.gradle.kts")));
        Set<String> named = new TreeSet<>();
        while (coordinates.find()) {
            assertTrue(PUBLISHED.contains(coordinates.group(1)), coordinates.group(1) + " is not a published module");
            if (coordinates.group(2) != null) {
                assertEquals(VERSION, coordinates.group(2), coordinates.group(1));
            }
            named.add(coordinates.group(1));
        }
        assertEquals(PUBLISHED, named);
    }

    @Test
    void theBomManagesEveryPublishedLibraryAtThisVersion() throws Exception {
        Document bom = parse(ROOT.resolve("inbox-bom/pom.xml"));
        assertEquals(VERSION, text(bom.getDocumentElement(), "version"));
        NodeList dependencies = bom.getElementsByTagName("dependency");
        Set<String> managed = new TreeSet<>();
        for (int i = 0; i < dependencies.getLength(); i++) {
            Element dependency = (Element) dependencies.item(i);
            assertEquals("${project.version}", text(dependency, "version"));
            managed.add(text(dependency, "artifactId"));
        }
        assertEquals(PUBLISHED.stream().filter(a -> !a.equals("inbox-bom")).collect(Collectors.toSet()), managed);
    }

    @Test
    void theDeploymentDescriptorNamesTheInboxsReference() throws Exception {
        Document web = parse(SOURCES.resolve("resources/snippets/web.xml"));
        assertEquals(InboxRepository.PERSISTENCE_CONTEXT_NAME,
                web.getElementsByTagName("persistence-context-ref-name").item(0).getTextContent());
    }

    /** The fenced blocks of every user page, each with the snippet marker above it, if any. */
    private static List<Block> blocks() throws IOException {
        List<Block> blocks = new ArrayList<>();
        for (Path page : DocPages.all()) {
            List<String> lines = Files.readAllLines(page);
            for (int i = 0; i < lines.size(); i++) {
                Matcher open = FENCE.matcher(lines.get(i));
                if (!open.matches()) {
                    continue;
                }
                int indent = open.group(1).length();
                int end = i + 1;
                while (end < lines.size() && !FENCE.matcher(lines.get(end)).matches()) {
                    end++;
                }
                List<String> body = new ArrayList<>();
                for (String line : lines.subList(i + 1, Math.min(end, lines.size()))) {
                    body.add(line.length() >= indent && line.substring(0, indent).isBlank() ? line.substring(indent)
                            : line.strip());
                }
                int above = i - 1;
                while (above >= 0 && lines.get(above).isBlank()) {
                    above--;
                }
                Matcher marker = above >= 0 ? MARKER.matcher(lines.get(above)) : null;
                blocks.add(new Block(page, i + 1, open.group(2), marker != null && marker.matches() ? marker : null,
                        body));
                i = end;
            }
        }
        return blocks;
    }

    private static Path source(String file) throws IOException {
        List<Path> roots = new ArrayList<>(List.of(SOURCES));
        roots.addAll(SHIPPED);
        for (Path root : roots) {
            try (Stream<Path> files = Files.walk(root)) {
                Path found = files.filter(f -> f.getFileName().toString().equals(file)).findFirst().orElse(null);
                if (found != null) {
                    return found;
                }
            }
        }
        return null;
    }

    /**
     * The lines between {@code tag::name[]} and {@code end::name[]}, without the lines of other regions' tags, and
     * without their common indentation; null when the source has no such region.
     */
    static List<String> region(List<String> source, String name) {
        int start = -1;
        int end = -1;
        for (int i = 0; i < source.size(); i++) {
            if (source.get(i).contains("tag::" + name + "[]") && start < 0) {
                start = i;
            } else if (source.get(i).contains("end::" + name + "[]") && start >= 0) {
                end = i;
                break;
            }
        }
        if (start < 0 || end < 0) {
            return null;
        }
        List<String> lines = source.subList(start + 1, end).stream()
                .filter(line -> !line.contains("tag::") && !line.contains("end::")).toList();
        int indent = lines.stream().filter(line -> !line.isBlank())
                .mapToInt(line -> line.length() - line.stripLeading().length()).min().orElse(0);
        return lines.stream().map(line -> line.isBlank() ? "" : line.substring(indent)).toList();
    }

    private static Document parse(Path file) throws Exception {
        DocumentBuilderFactory factory = DocumentBuilderFactory.newInstance();
        factory.setNamespaceAware(true);
        return factory.newDocumentBuilder().parse(file.toFile());
    }

    /** The text of an element's direct child, or null. */
    private static String text(Element parent, String child) {
        for (org.w3c.dom.Node node = parent.getFirstChild(); node != null; node = node.getNextSibling()) {
            if (node instanceof Element element && element.getLocalName().equals(child)) {
                return element.getTextContent().strip();
            }
        }
        return null;
    }
}
