package io.github.txinbox.sample.launcher;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.stream.Stream;

/**
 * A Payara Server domain of the sample's own, made anew for every run with Payara's own {@code asadmin}: no state of
 * an earlier run (queued messages, deployed applications, settings) reaches the next. Its settings are in the pre-
 * and post-boot command files among the launcher's resources ({@code payara/*.asadmin}); every {@code asadmin}
 * call's output goes to {@code asadmin.log}, and is shown when a call fails.
 */
final class PayaraDomain {

    static final String NAME = "sample";

    /**
     * Whether {@code setsid} is there to give asadmin and the server it starts a session of their own: Ctrl+C in the
     * terminal then reaches the launcher only, which stops the server before the database, instead of both stopping
     * at once.
     */
    private static final boolean SETSID = Stream.of(System.getenv().getOrDefault("PATH", "").split(File.pathSeparator))
            .anyMatch(directory -> Files.isExecutable(Path.of(directory, "setsid")));

    private final Path installation;
    private final Path domains;
    private final Path log;
    private final int portOffset;
    private volatile ProcessHandle server;

    /**
     * @param installation the unpacked Payara Server ({@code payara6}, holding {@code glassfish/})
     * @param work         where the domain and the launcher's files go
     * @param portOffset   added to each of Payara's default ports
     */
    PayaraDomain(Path installation, Path work, int portOffset) {
        this.installation = installation;
        this.domains = work.resolve("domains");
        this.log = work.resolve("asadmin.log");
        this.portOffset = portOffset;
    }

    /** Replaces the domain left by an earlier run, if any, with a new one. */
    void create() {
        if (Files.isDirectory(domain())) {
            asadmin(Duration.ofMinutes(1), Map.of(), "delete-domain", "--domaindir", domains.toString(), NAME);
        }
        asadmin(Duration.ofMinutes(3), Map.of(), "create-domain", "--nopassword", "--domaindir", domains.toString(),
                "--adminport", port(4848), "--instanceport", port(8080), "--domainproperties",
                "http.ssl.port=" + port(8181) + ":orb.listener.port=" + port(3700) + ":jms.port=" + port(7676)
                        + ":orb.ssl.port=" + port(3820) + ":orb.mutualauth.port=" + port(3920) + ":domain.jmxPort="
                        + port(8686) + ":java.debugger.port=" + port(9009) + ":osgi.shell.telnet.port=" + port(6666),
                NAME);
        copy("broker.properties", domain().resolve("imq/instances/imqbroker/props/config.properties"));
    }

    /**
     * Starts the domain, which applies the boot command files.
     *
     * @param environment variables for the server's JVM: the application reads its settings from them through
     *                    MicroProfile Config
     */
    void start(Map<String, String> environment) {
        Path preboot = copy("preboot.asadmin", domains.resolve("preboot.asadmin"));
        replace(preboot, "--mqport 7676", "--mqport " + port(7676));
        Path postboot = copy("postboot.asadmin", domains.resolve("postboot.asadmin"));
        try {
            asadmin(Duration.ofMinutes(5), environment, "start-domain", "--domaindir", domains.toString(),
                    "--prebootcommandfile", preboot.toString(), "--postbootcommandfile", postboot.toString(), NAME);
        } finally {
            // Even when start-domain failed, a server it left running is stopped with the launcher.
            server = readPid().orElse(null);
        }
        if (server == null) {
            throw new LauncherException("Payara Server started, but its process is gone; its log: " + serverLog());
        }
    }

    void deploy(Path archive, String name) {
        asadmin(Duration.ofMinutes(5), Map.of(), "--port=" + port(4848), "deploy", "--name", name, archive.toString());
    }

    /** Stops the domain and waits until its process has ended; does nothing when it does not run. */
    void stop() {
        if (!running()) {
            return;
        }
        try {
            asadmin(Duration.ofMinutes(2), Map.of(), "stop-domain", "--domaindir", domains.toString(), NAME);
        } catch (LauncherException e) {
            System.err.println(e.getMessage());
        }
        try {
            server.onExit().get(2, TimeUnit.MINUTES);
        } catch (TimeoutException | ExecutionException e) {
            server.destroyForcibly();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Whether the server this object started still runs. */
    boolean running() {
        return server != null && server.isAlive();
    }

    private Optional<ProcessHandle> readPid() {
        try {
            long pid = Long.parseLong(Files.readString(domain().resolve("config/pid")).trim());
            return ProcessHandle.of(pid).filter(ProcessHandle::isAlive);
        } catch (IOException | NumberFormatException e) {
            return Optional.empty();
        }
    }

    Path serverLog() {
        return domain().resolve("logs/server.log");
    }

    private Path domain() {
        return domains.resolve(NAME);
    }

    /** One of Payara's default ports, moved by the offset. */
    private String port(int standard) {
        return Integer.toString(standard + portOffset);
    }

    private static void replace(Path file, String text, String replacement) {
        try {
            Files.writeString(file, Files.readString(file).replace(text, replacement));
        } catch (IOException e) {
            throw new LauncherException("Could not write " + file + ": " + e.getMessage());
        }
    }

    private Path copy(String resource, Path file) {
        try (InputStream in = PayaraDomain.class.getResourceAsStream("/payara/" + resource)) {
            Files.createDirectories(file.getParent());
            Files.copy(in, file, StandardCopyOption.REPLACE_EXISTING);
            return file;
        } catch (IOException e) {
            throw new LauncherException("Could not write " + file + ": " + e.getMessage());
        }
    }

    /** Runs asadmin with the launcher's own Java, its output appended to the log; fails with its tail. */
    private void asadmin(Duration timeout, Map<String, String> environment, String... arguments) {
        List<String> command = new ArrayList<>();
        if (SETSID) {
            command.add("setsid");
        }
        command.addAll(List.of(ProcessHandle.current().info().command().orElse("java"), "-jar",
                installation.resolve("glassfish/lib/client/appserver-cli.jar").toString(), "--interactive=false"));
        command.addAll(List.of(arguments));
        String what = "asadmin " + Stream.of(arguments).filter(a -> !a.startsWith("--")).findFirst().orElse("");
        try {
            Files.createDirectories(log.getParent());
            long start = Files.exists(log) ? Files.size(log) : 0;
            ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()));
            builder.environment().putAll(environment);
            Process process = builder.start();
            process.getOutputStream().close();
            long deadline = System.nanoTime() + timeout.toNanos();
            while (!process.waitFor(2, TimeUnit.SECONDS)) {
                if (System.nanoTime() > deadline) {
                    process.destroyForcibly();
                    throw new LauncherException(what + " did not finish within " + timeout.toSeconds() + " s (its "
                            + "output: " + log + ")");
                }
                System.out.print(".");
                System.out.flush();
            }
            if (process.exitValue() != 0) {
                String output;
                try (var in = Files.newInputStream(log)) {
                    in.skipNBytes(start);
                    output = new String(in.readAllBytes(), StandardCharsets.UTF_8).strip();
                }
                throw new LauncherException(what + " failed (exit " + process.exitValue() + "):\n" + output);
            }
        } catch (IOException e) {
            throw new LauncherException("Could not run " + what + ": " + e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new LauncherException("Interrupted while running " + what);
        }
    }
}
