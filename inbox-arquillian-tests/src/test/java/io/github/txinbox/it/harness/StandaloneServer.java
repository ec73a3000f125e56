package io.github.txinbox.it.harness;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.MalformedURLException;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.jboss.shrinkwrap.api.exporter.ZipExporter;
import org.jboss.shrinkwrap.api.spec.WebArchive;

/**
 * A WildFly or Open Liberty server started by hand beside the one Arquillian runs, for what Arquillian cannot do:
 * kill it with SIGKILL and start it again on the same data (the broker's store and the transaction log). Each
 * instance has a directory of its own under {@code target/killed/NAME}, kept across restarts, the same configuration
 * as the Arquillian server (written by {@link WildFlySession} or {@link LibertySession}) and its HTTP port on
 * 127.0.0.1 at {@value #HTTP_PORT}.
 */
public final class StandaloneServer implements AutoCloseable {

    /** The HTTP port of the servers started here. */
    public static final int HTTP_PORT = 8380;

    private final Process process;
    private final Path log;
    private final String context;

    private StandaloneServer(Process process, Path log, String context) {
        this.process = process;
        this.log = log;
        this.context = context;
    }

    /**
     * Starts the server of a directory with one WAR, the first time in a new directory, and waits until the WAR runs.
     *
     * @param name    the directory's name
     * @param war     the WAR, exported into the directory on the first start
     * @param timeout how long the start may take
     * @return the running server
     */
    public static StandaloneServer start(String name, WebArchive war, Duration timeout) throws IOException {
        return start(name, war, timeout, System.getProperty("inbox.db.url"), List.of());
    }

    /**
     * Starts the server of a directory as {@link #start(String, WebArchive, Duration)} does, with its datasource and
     * the deployment's {@code inbox.db.url} on another PostgreSQL database (same user and password) than the
     * session's, and further JVM system properties. WildFly only.
     *
     * @param name        the directory's name
     * @param war         the WAR, exported into the directory on the first start
     * @param timeout     how long the start may take
     * @param databaseUrl the JDBC URL of the database, written into the directory's configuration on the first start
     * @param properties  further {@code -Dname=value} options of the server's JVM
     * @return the running server
     */
    public static StandaloneServer start(String name, WebArchive war, Duration timeout, String databaseUrl,
            List<String> properties) throws IOException {
        Path directory = Path.of(ServerSetup.required("txinbox.it.workDir"), "killed", name);
        Server server = Server.current();
        if (server != Server.WILDFLY && (!databaseUrl.equals(System.getProperty("inbox.db.url"))
                || !properties.isEmpty())) {
            throw new UnsupportedOperationException("Another database and JVM options: WildFly only, not " + server);
        }
        String context = war.getName().replace(".war", "");
        boolean first = !Files.exists(directory);
        Files.createDirectories(directory);
        Path log = directory.resolve("console-" + System.currentTimeMillis() + ".log");
        ProcessBuilder builder;
        Path ready;
        if (server == Server.WILDFLY) {
            Path home = Path.of(ServerSetup.required("txinbox.it.wildfly.home"));
            Path base = directory.resolve("wildfly");
            if (first) {
                copyDirectory(home.resolve("standalone/configuration"), base.resolve("configuration"));
                Path configuration = base.resolve("configuration/" + WildFlySession.CONFIG);
                String sessionUrl = System.getProperty("inbox.db.url");
                String content = Files.readString(configuration);
                if (!content.contains(sessionUrl)) {
                    throw new IllegalStateException("No " + sessionUrl + " in " + configuration);
                }
                Files.writeString(configuration, content.replace(sessionUrl, databaseUrl));
                Files.createDirectories(base.resolve("deployments"));
                war.as(ZipExporter.class).exportTo(base.resolve("deployments/" + war.getName()).toFile());
            }
            ready = base.resolve("deployments/" + war.getName() + ".deployed");
            Files.deleteIfExists(ready);
            builder = new ProcessBuilder(home.resolve("bin/standalone.sh").toString(),
                    "-c", WildFlySession.CONFIG,
                    "-Djboss.server.base.dir=" + base,
                    "-Djboss.bind.address=127.0.0.1", "-Djboss.bind.address.management=127.0.0.1",
                    "-Djboss.bind.address.private=127.0.0.1", "-Djboss.bind.address.unsecure=127.0.0.1",
                    "-Djboss.socket.binding.port-offset=" + (HTTP_PORT - 8080));
            builder.command().addAll(properties);
            builder.environment().put("JBOSS_HOME", home.toString());
        } else if (server == Server.LIBERTY) {
            Path home = Path.of(ServerSetup.required("txinbox.it.liberty.home"));
            String serverName = LibertySession.SERVER + "-" + name;
            Path serverDirectory = home.resolve("usr/servers/" + serverName);
            if (first) {
                LibertySession.writeServer(serverDirectory, HTTP_PORT, false);
                Files.createDirectories(serverDirectory.resolve("dropins"));
                war.as(ZipExporter.class).exportTo(serverDirectory.resolve("dropins/" + war.getName()).toFile());
            }
            ready = null;
            builder = new ProcessBuilder(home.resolve("bin/server").toString(), "run", serverName);
        } else {
            throw new UnsupportedOperationException("Payara Micro is started by hand with PayaraMicroProcess");
        }
        builder.environment().put("JAVA_HOME", System.getProperty("java.home"));
        builder.redirectErrorStream(true).redirectOutput(log.toFile());
        StandaloneServer started = new StandaloneServer(builder.start(), log, context);
        started.awaitReady(ready, timeout);
        return started;
    }

    private void awaitReady(Path marker, Duration timeout) throws IOException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            // Open Liberty reports the application started (CWWKZ0001I) before its HTTP endpoint may listen; the
            // server is ready once it says so (CWWKF0011I).
            String sofar = output();
            if (marker != null ? Files.exists(marker) : sofar.contains("CWWKZ0001I: Application " + context
                    + " started") && sofar.contains("CWWKF0011I")) {
                return;
            }
            String output = output();
            boolean failed = marker != null ? Files.exists(marker.resolveSibling(marker.getFileName().toString()
                    .replace(".deployed", ".failed"))) : output.contains("CWWKZ0002E") || output.contains("CWWKZ0012I");
            if (failed || !process.isAlive() || System.nanoTime() > deadline) {
                close();
                throw new IllegalStateException("The server did not deploy " + context + " ("
                        + (failed ? "failed" : process.isAlive() ? "timed out" : "exited") + "); its output:\n"
                        + output);
            }
            try {
                Thread.sleep(200);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            }
        }
    }

    /**
     * Returns the deployment's base URL.
     *
     * @return the URL
     */
    public URL url() {
        try {
            return new URL("http://127.0.0.1:" + HTTP_PORT + "/" + context + "/");
        } catch (MalformedURLException e) {
            throw new IllegalStateException(e);
        }
    }

    /**
     * Returns what the server wrote to its console so far.
     *
     * @return the output
     */
    public String output() {
        try {
            return Files.readString(log);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Kills the server's JVM with SIGKILL, as a crash would, and waits until it is gone. */
    public void kill() {
        java().ifPresent(ProcessHandle::destroyForcibly);
        process.destroyForcibly();
        awaitExit(Duration.ofSeconds(30));
    }

    /** Stops the server if it still runs: SIGTERM to its JVM (an orderly shutdown), SIGKILL after a minute. */
    @Override
    public void close() {
        if (!process.isAlive()) {
            return;
        }
        java().ifPresentOrElse(ProcessHandle::destroy, process::destroy);
        if (!awaitExit(Duration.ofMinutes(1))) {
            kill();
        }
    }

    /** The server's JVM: the start script's java child, or the script itself once it has exec'd java. */
    private Optional<ProcessHandle> java() {
        List<ProcessHandle> candidates = new ArrayList<>();
        candidates.add(process.toHandle());
        try (Stream<ProcessHandle> descendants = process.descendants()) {
            descendants.forEach(candidates::add);
        }
        return candidates.stream().filter(ProcessHandle::isAlive)
                .filter(handle -> handle.info().command().map(command -> command.endsWith("/java")).orElse(false))
                .findFirst();
    }

    private boolean awaitExit(Duration timeout) {
        try {
            boolean exited = process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS);
            try (Stream<ProcessHandle> descendants = process.descendants()) {
                descendants.forEach(ProcessHandle::destroyForcibly);
            }
            return exited;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    private static void copyDirectory(Path from, Path to) throws IOException {
        try (Stream<Path> paths = Files.walk(from)) {
            for (Path path : paths.toList()) {
                Path target = to.resolve(from.relativize(path).toString());
                if (Files.isDirectory(path)) {
                    Files.createDirectories(target);
                } else {
                    Files.copy(path, target, StandardCopyOption.REPLACE_EXISTING);
                }
            }
        }
    }
}
