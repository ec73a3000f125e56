package io.github.txinbox.bench;

import io.github.txinbox.it.harness.Deployments;
import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.time.Duration;
import java.util.stream.Stream;
import org.jboss.shrinkwrap.api.ArchivePath;
import org.jboss.shrinkwrap.api.ShrinkWrap;
import org.jboss.shrinkwrap.api.asset.StringAsset;
import org.jboss.shrinkwrap.api.spec.WebArchive;

/**
 * The library as an earlier commit built it, for a benchmark to measure against in the same run: the regression
 * guard of the hot path. Named by {@value #PROPERTY}, either a Git revision of this repository, whose
 * {@code inbox-cdi} and {@code inbox-ejb} the benchmark builds once under {@code target/baseline/<commit>} (from
 * {@code git archive}, so the working tree is left alone), or a directory holding those two jars, such as an earlier
 * release's.
 *
 * @param name the short commit, or the directory's name
 * @param jars the earlier {@code inbox-cdi} and {@code inbox-ejb} jars
 */
record Baseline(String name, List<File> jars) {

    /** The system property naming the earlier library. */
    static final String PROPERTY = "txinbox.bench.baseline";

    private static final Duration BUILD_TIMEOUT = Duration.ofMinutes(10);

    /**
     * The earlier library the run names, built on first use.
     *
     * @return the baseline, or empty when {@value #PROPERTY} names none
     */
    static Optional<Baseline> configured() {
        String named = System.getProperty(PROPERTY, "").trim();
        if (named.isEmpty()) {
            return Optional.empty();
        }
        Path directory = Path.of(named);
        if (Files.isDirectory(directory)) {
            return Optional.of(new Baseline(directory.getFileName().toString(), jars(directory)));
        }
        Path root = Path.of(System.getProperty("txinbox.it.workDir")).toAbsolutePath().getParent().getParent();
        String commit = run(root, "git", "rev-parse", "--short=7", "--verify", named + "^{commit}").trim();
        Path tree = root.resolve("inbox-arquillian-tests/target/baseline").resolve(commit);
        if (!Files.isDirectory(tree.resolve("inbox-cdi/target")) || jars(tree).size() < 2) {
            build(root, commit, tree);
        }
        return Optional.of(new Baseline(commit, jars(tree)));
    }

    /**
     * A deployment that carries the earlier library instead of this build's: the same WAR with its {@code inbox-cdi}
     * and {@code inbox-ejb} jars replaced.
     *
     * @param war the deployment as this build makes it
     * @return the same deployment
     */
    WebArchive into(WebArchive war) {
        List<ArchivePath> ours = new ArrayList<>();
        war.getContent().keySet().forEach(path -> {
            String file = path.get();
            if (file.startsWith("/WEB-INF/lib/inbox-cdi-") || file.startsWith("/WEB-INF/lib/inbox-ejb-")) {
                ours.add(path);
            }
        });
        if (ours.size() != 2) {
            throw new IllegalStateException("Expected this build's inbox-cdi and inbox-ejb in " + war.getName()
                    + ", found " + ours);
        }
        ours.forEach(war::delete);
        return war.addAsLibraries(jars.toArray(File[]::new));
    }

    /**
     * A deployment that does nothing, in place of the baseline's when the run names none: an Arquillian deployment
     * method must return an archive.
     *
     * @param name the WAR's name
     * @return the WAR
     */
    static WebArchive nothing(String name) {
        return ShrinkWrap.create(WebArchive.class, name + ".war")
                .addAsWebResource(new StringAsset("no baseline named (-D" + PROPERTY + ")"), "index.txt");
    }

    /** Extracts the commit's tree and packages its two library modules, without their tests. */
    private static void build(Path root, String commit, Path tree) {
        try {
            deleteTree(tree);
            Files.createDirectories(tree);
            Path archive = tree.resolveSibling(commit + ".tar");
            run(root, "git", "archive", "--format=tar", "-o", archive.toString(), commit);
            run(tree, "tar", "-xf", archive.toString());
            Files.delete(archive);
        } catch (IOException e) {
            throw new UncheckedIOException("Could not extract " + commit + " into " + tree, e);
        }
        List<String> maven = List.of("mvn", "-B", "-q", "package", "-pl", "inbox-cdi,inbox-ejb", "-am",
                "-DskipTests", "-Dmaven.source.skip=true", "-Dmaven.javadoc.skip=true");
        try {
            // Offline first: what an earlier commit needs is usually in the local repository already.
            List<String> offline = new ArrayList<>(maven);
            offline.add("-o");
            run(tree, offline.toArray(String[]::new));
        } catch (IllegalStateException offlineFailed) {
            run(tree, maven.toArray(String[]::new));
        }
    }

    /** The two library jars under a directory, or its modules' {@code target}. */
    private static List<File> jars(Path directory) {
        List<File> found = new ArrayList<>();
        for (String module : new String[] {"inbox-cdi", "inbox-ejb"}) {
            Path[] places = {directory, directory.resolve(module).resolve("target")};
            for (Path place : places) {
                if (!Files.isDirectory(place)) {
                    continue;
                }
                try (Stream<Path> files = Files.list(place)) {
                    files.map(Path::getFileName).map(Path::toString)
                            .filter(file -> file.startsWith(module + "-") && file.endsWith(".jar")
                                    && !file.endsWith("-sources.jar") && !file.endsWith("-javadoc.jar"))
                            .findFirst().map(file -> place.resolve(file).toFile()).ifPresent(found::add);
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
                if (found.size() > (module.equals("inbox-cdi") ? 0 : 1)) {
                    break;
                }
            }
        }
        return found;
    }

    private static String run(Path directory, String... command) {
        try {
            Path output = Files.createTempFile("baseline", ".log");
            Process process = new ProcessBuilder(command).directory(directory.toFile())
                    .redirectErrorStream(true).redirectOutput(output.toFile()).start();
            if (!process.waitFor(BUILD_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)) {
                process.destroyForcibly();
                throw new IllegalStateException(String.join(" ", command) + " took longer than " + BUILD_TIMEOUT);
            }
            String printed = Files.readString(output, StandardCharsets.UTF_8);
            Files.delete(output);
            if (process.exitValue() != 0) {
                throw new IllegalStateException(String.join(" ", command) + " in " + directory + " failed (exit "
                        + process.exitValue() + "):\n" + printed);
            }
            return printed;
        } catch (IOException e) {
            throw new UncheckedIOException(String.join(" ", command) + " could not run", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(String.join(" ", command) + " was interrupted", e);
        }
    }

    private static void deleteTree(Path tree) throws IOException {
        if (!Files.exists(tree)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(tree)) {
            for (Path path : (Iterable<Path>) paths.sorted(java.util.Comparator.reverseOrder())::iterator) {
                Files.delete(path);
            }
        }
    }

    /**
     * The deployment of the baseline's listener: the benchmark's application around it, with the earlier library.
     *
     * @param listener the listener, the only one in the WAR
     * @param extra    further classes
     * @return the WAR
     */
    WebArchive war(Class<?> listener, Class<?>... extra) {
        WebArchive war = Deployments.war(listener, extra);
        return into(Deployments.withPersistenceXml(war, "bench-persistence.xml"));
    }
}
