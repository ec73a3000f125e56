package io.github.txinbox.bench;

import io.github.txinbox.dev.ChildProcess;
import io.github.txinbox.it.harness.Deployments;
import io.github.txinbox.it.harness.Directories;
import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;
import org.jboss.shrinkwrap.api.ArchivePath;
import org.jboss.shrinkwrap.api.ShrinkWrap;
import org.jboss.shrinkwrap.api.asset.StringAsset;
import org.jboss.shrinkwrap.api.spec.WebArchive;

/**
 * The library as an earlier commit built it, for a benchmark to measure against in the same run: the regression
 * guard of the hot path. Named by {@value #PROPERTY}, either a Git revision of this repository, whose
 * {@code inbox-cdi}, {@code inbox-http} (where it has one) and {@code inbox-ejb} the benchmark builds once under
 * {@code target/baseline/<commit>} (from
 * {@code git archive}, so the working tree is left alone), or a directory holding those jars, such as an earlier
 * release's.
 *
 * @param name the short commit, or the directory's name
 * @param jars the earlier library jars
 */
record Baseline(String name, List<File> jars) {

    /** The system property naming the earlier library. */
    static final String PROPERTY = "txinbox.bench.baseline";

    /** The library's modules in a deployment; an earlier commit may lack inbox-http. */
    private static final String[] MODULES = {"inbox-cdi", "inbox-http", "inbox-ejb"};

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
        String commit = revision(root, named);
        Path tree = root.resolve("inbox-arquillian-tests/target/baseline").resolve(commit);
        if (!Files.isDirectory(tree.resolve("inbox-cdi/target")) || jars(tree).size() < 2) {
            build(root, commit, tree);
        }
        return Optional.of(new Baseline(commit, jars(tree)));
    }

    /**
     * A deployment that carries the earlier library instead of this build's: the same WAR with its {@code inbox-cdi},
     * {@code inbox-http} and {@code inbox-ejb} jars replaced by the earlier ones (a commit before {@code @Idempotent}
     * had a module of its own has no {@code inbox-http}: its core held it).
     *
     * @param war the deployment as this build makes it
     * @return the same deployment
     */
    WebArchive into(WebArchive war) {
        List<ArchivePath> ours = new ArrayList<>();
        war.getContent().keySet().forEach(path -> {
            String file = path.get();
            if (file.startsWith("/WEB-INF/lib/inbox-cdi-") || file.startsWith("/WEB-INF/lib/inbox-ejb-")
                    || file.startsWith("/WEB-INF/lib/inbox-http-")) {
                ours.add(path);
            }
        });
        if (ours.size() != MODULES.length) {
            throw new IllegalStateException("Expected this build's " + String.join(", ", MODULES) + " in "
                    + war.getName() + ", found " + ours);
        }
        ours.forEach(war::delete);
        return war.addAsLibraries(jars.toArray(File[]::new));
    }

    /**
     * Whether the earlier library has the module {@code inbox-http}.
     *
     * @return whether one of its jars is inbox-http's
     */
    boolean hasHttp() {
        return jars.stream().anyMatch(jar -> jar.getName().startsWith("inbox-http-"));
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

    /** The short commit a revision names in the repository at {@code root}. */
    private static String revision(Path root, String named) {
        Path log = log(root);
        ChildProcess git = ChildProcess.start("git rev-parse", List.of("git", "rev-parse", "--short=7", "--verify",
                named + "^{commit}"), root, Map.of(), log);
        if (git.awaitExit(BUILD_TIMEOUT) != 0) {
            throw new IllegalStateException(named + " names no commit of " + root + ":\n" + git.output());
        }
        return git.output().trim();
    }

    /** Extracts the commit's tree and packages its two library modules, without their tests. */
    private static void build(Path root, String commit, Path tree) {
        Path log = log(root);
        Directories.delete(tree);
        Path archive = tree.resolveSibling(commit + ".tar");
        try {
            Files.createDirectories(tree);
        } catch (IOException e) {
            throw new UncheckedIOException("Could not create " + tree, e);
        }
        ChildProcess.run("git archive", List.of("git", "archive", "--format=tar", "-o", archive.toString(), commit),
                root, Map.of(), log, BUILD_TIMEOUT);
        ChildProcess.run("tar", List.of("tar", "-xf", archive.toString()), tree, Map.of(), log, BUILD_TIMEOUT);
        try {
            Files.delete(archive);
        } catch (IOException e) {
            throw new UncheckedIOException("Could not delete " + archive, e);
        }
        String modules = Files.isDirectory(tree.resolve("inbox-http")) ? "inbox-cdi,inbox-http,inbox-ejb"
                : "inbox-cdi,inbox-ejb";
        List<String> maven = List.of("mvn", "-B", "-q", "package", "-pl", modules, "-am",
                "-DskipTests", "-Dmaven.source.skip=true", "-Dmaven.javadoc.skip=true");
        try {
            // Offline first: what an earlier commit needs is usually in the local repository already.
            List<String> offline = new ArrayList<>(maven);
            offline.add("-o");
            ChildProcess.run("the build of " + commit + ", offline", offline, tree, Map.of(), log, BUILD_TIMEOUT);
        } catch (IllegalStateException offlineFailed) {
            ChildProcess.run("the build of " + commit, maven, tree, Map.of(), log, BUILD_TIMEOUT);
        }
    }

    /** Where the commands that build a baseline write their output. */
    private static Path log(Path root) {
        return root.resolve("inbox-arquillian-tests/target/baseline/build.log");
    }

    /** The library jars under a directory, or under its modules' {@code target}. */
    private static List<File> jars(Path directory) {
        List<File> found = new ArrayList<>();
        for (String module : MODULES) {
            jar(directory, module).or(() -> jar(directory.resolve(module).resolve("target"), module))
                    .ifPresent(found::add);
        }
        return found;
    }

    /** The module's jar in a directory (not its sources or javadoc), if there is one. */
    private static Optional<File> jar(Path directory, String module) {
        if (!Files.isDirectory(directory)) {
            return Optional.empty();
        }
        try (Stream<Path> files = Files.list(directory)) {
            return files.filter(file -> {
                String name = file.getFileName().toString();
                return name.startsWith(module + "-") && name.endsWith(".jar") && !name.endsWith("-sources.jar")
                        && !name.endsWith("-javadoc.jar");
            }).findFirst().map(Path::toFile);
        } catch (IOException e) {
            throw new UncheckedIOException("Could not list " + directory, e);
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
