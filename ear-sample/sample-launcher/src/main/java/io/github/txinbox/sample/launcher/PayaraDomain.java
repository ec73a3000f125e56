package io.github.txinbox.sample.launcher;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * A Payara Server domain of the sample's own, made anew for every run with Payara's own {@code asadmin}: no state of
 * an earlier run (queued messages, deployed applications, settings) reaches the next. Its settings are in the pre-
 * and post-boot command files among the launcher's resources ({@code payara/*.asadmin}); every {@code asadmin}
 * call's output goes to {@code asadmin.log}, and is shown when a call fails.
 */
final class PayaraDomain {

    private static final String NAME = "sample";

    /**
     * Whether {@code setsid} is there to give asadmin and the server it starts a session of their own: Ctrl+C in the
     * terminal then reaches the launcher only, which stops the server before the database, instead of both at once.
     */
    private static final boolean SETSID = Stream.of(System.getenv().getOrDefault("PATH", "").split(File.pathSeparator))
            .anyMatch(directory -> Files.isExecutable(Path.of(directory, "setsid")));

    private final Path installation;
    private final Path domains;
    private final Path log;
    private final int portBase;
    private volatile boolean started;

    /**
     * @param installation the unpacked Payara Server ({@code payara6}, holding {@code glassfish/})
     * @param work         where the domain and the launcher's files go
     * @param portBase     create-domain's {@code --portbase}: the domain listens on the next hundred ports (HTTP on
     *                     the base plus 80, admin plus 48, OpenMQ plus 76)
     */
    PayaraDomain(Path installation, Path work, int portBase) {
        this.installation = installation;
        this.domains = work.resolve("domains");
        this.log = work.resolve("asadmin.log");
        this.portBase = portBase;
    }

    /** Replaces the domain an earlier run left, if any, with a new one. */
    void create() {
        if (Files.isDirectory(domains.resolve(NAME))) {
            asadmin(Duration.ofMinutes(1), Map.of(), "delete-domain", "--domaindir", domains.toString(), NAME);
        }
        try {
            asadmin(Duration.ofMinutes(3), Map.of(), "create-domain", "--nopassword", "--domaindir",
                    domains.toString(), "--portbase", Integer.toString(portBase), NAME);
        } catch (LauncherException e) {
            throw !e.getMessage().contains(" is in use") ? e : new LauncherException(e.getMessage() + "\nThe "
                    + "sample's Payara listens on ports " + portBase + " to " + (portBase + 99) + " of 127.0.0.1: stop "
                    + "what listens there (ss -ltnp), or move the ports with TXINBOX_SAMPLE_PORT_OFFSET.");
        }
        write("broker.properties", domains.resolve(NAME).resolve("imq/instances/imqbroker/props/config.properties"));
    }

    /**
     * Starts the domain, which applies the boot command files.
     *
     * @param environment variables for the server's JVM: the application reads its settings from them through
     *                    MicroProfile Config
     */
    void start(Map<String, String> environment) {
        started = true;
        asadmin(Duration.ofMinutes(5), environment, "start-domain", "--domaindir", domains.toString(),
                "--prebootcommandfile", write("preboot.asadmin", domains.resolve("preboot.asadmin")).toString(),
                "--postbootcommandfile", write("postboot.asadmin", domains.resolve("postboot.asadmin")).toString(),
                NAME);
    }

    void deploy(Path archive) {
        asadmin(Duration.ofMinutes(5), Map.of(), "--port=" + (portBase + 48), "deploy", "--name", "txinbox-sample",
                archive.toString());
    }

    /** Whether {@link #start} was called: the server may run, also after a failed start-domain. */
    boolean started() {
        return started;
    }

    /** Stops the domain's server, which stop-domain waits for; kills it when it does not stop. */
    void stop() {
        try {
            asadmin(Duration.ofMinutes(2), Map.of(), "stop-domain", "--domaindir", domains.toString(), NAME);
        } catch (LauncherException e) {
            System.err.println(e.getMessage());
            asadmin(Duration.ofMinutes(1), Map.of(), "stop-domain", "--kill", "--domaindir", domains.toString(), NAME);
        }
    }

    Path serverLog() {
        return domains.resolve(NAME).resolve("logs/server.log");
    }

    /** Writes one of the launcher's resources to a file, with the domain's own broker port. */
    private Path write(String resource, Path file) {
        try (InputStream in = PayaraDomain.class.getResourceAsStream("/payara/" + resource)) {
            Files.createDirectories(file.getParent());
            String text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
            return Files.writeString(file, text.replace("--mqport 7676", "--mqport " + (portBase + 76)));
        } catch (IOException e) {
            throw new LauncherException("Could not write " + file + ": " + e.getMessage());
        }
    }

    /** Runs asadmin with the launcher's own Java, printing a dot every 2 s; fails with its output. */
    private void asadmin(Duration timeout, Map<String, String> environment, String... arguments) {
        List<String> command = new ArrayList<>(SETSID ? List.of("setsid") : List.of());
        command.addAll(List.of(ProcessHandle.current().info().command().orElse("java"), "-jar",
                installation.resolve("glassfish/lib/client/appserver-cli.jar").toString(), "--interactive=false"));
        command.addAll(List.of(arguments));
        String what = "asadmin " + Stream.of(arguments).filter(a -> !a.startsWith("--")).findFirst().orElse("");
        try {
            Files.createDirectories(log.getParent());
            int from = Files.exists(log) ? (int) Files.size(log) : 0;
            ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()));
            builder.environment().putAll(environment);
            Process process = builder.start();
            process.getOutputStream().close();
            for (long deadline = System.nanoTime() + timeout.toNanos(); !process.waitFor(2, TimeUnit.SECONDS); ) {
                if (System.nanoTime() > deadline) {
                    process.destroyForcibly();
                    throw new LauncherException(what + " did not finish within " + timeout.toSeconds() + " s (its "
                            + "output: " + log + ")");
                }
                System.out.print(".");
                System.out.flush();
            }
            if (process.exitValue() != 0) {
                byte[] said = Files.readAllBytes(log);
                throw new LauncherException(what + " failed (exit " + process.exitValue() + "):\n" + new String(said,
                        from, said.length - from, StandardCharsets.UTF_8).split("\nUsage: ")[0].strip());
            }
        } catch (IOException e) {
            throw new LauncherException("Could not run " + what + ": " + e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new LauncherException("Interrupted while running " + what);
        }
    }
}
