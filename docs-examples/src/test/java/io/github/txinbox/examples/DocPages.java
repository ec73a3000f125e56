package io.github.txinbox.examples;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/** The user docs the doc tests read: README.md, CONTRIBUTING.md, ear-sample/README.md and docs/*.md. */
final class DocPages {

    /** The checkout's root, where README.md and docs/ are. */
    static final Path ROOT = Path.of(System.getProperty("txinbox.docs.root", "..")).normalize();

    private DocPages() {
    }

    /** Every user page, the three at the top first, then docs/ by name. */
    static List<Path> all() throws IOException {
        List<Path> pages = new ArrayList<>(List.of(ROOT.resolve("README.md"), ROOT.resolve("CONTRIBUTING.md"),
                ROOT.resolve("ear-sample/README.md")));
        try (Stream<Path> docs = Files.list(ROOT.resolve("docs"))) {
            docs.filter(p -> p.toString().endsWith(".md")).sorted().forEach(pages::add);
        }
        return pages;
    }

    /** Where a page is, for a message: its path from the root. */
    static String name(Path page) {
        return ROOT.relativize(page).toString();
    }
}
