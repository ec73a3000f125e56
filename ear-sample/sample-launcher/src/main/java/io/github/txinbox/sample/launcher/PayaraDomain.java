package io.github.txinbox.sample.launcher;

import io.github.txinbox.dev.ChildProcess;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * A Payara Server domain of the sample's own, made anew for every run with Payara's own {@code asadmin}: no state of
 * an earlier run reaches the next. Its settings are the boot command files among the launcher's resources
 * ({@code payara/*.asadmin}); every {@code asadmin} call's output goes to {@code asadmin.log}, and a failed call's is
 * shown.
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
    /** create-domain's {@code --portbase}: HTTP listens on it plus 80, admin plus 48, OpenMQ plus 76. */
    private final int portBase;
    private volatile boolean started;

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
        } catch (IllegalStateException e) {
            throw !e.getMessage().contains(" is in use") ? e : new IllegalStateException(e.getMessage()
                    + "\nThe sample's Payara listens on ports " + portBase + " to " + (portBase + 99)
                    + " of 127.0.0.1: stop what listens there (ss -ltnp), or move the ports with "
                    + "TXINBOX_SAMPLE_PORT_OFFSET.");
        }
        write("broker.properties", domains.resolve(NAME).resolve("imq/instances/imqbroker/props/config.properties"));
    }

    /** Starts the domain with the boot command files; the environment is the application's settings. */
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
        } catch (IllegalStateException e) {
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
            throw new UncheckedIOException("Could not write " + file + ": " + e.getMessage(), e);
        }
    }

    /** Runs asadmin with the launcher's own Java, its output appended to asadmin.log; fails with that output. */
    private void asadmin(Duration timeout, Map<String, String> environment, String... arguments) {
        List<String> command = new ArrayList<>(SETSID ? List.of("setsid") : List.of());
        command.addAll(List.of(ProcessHandle.current().info().command().orElse("java"), "-jar",
                installation.resolve("glassfish/lib/client/appserver-cli.jar").toString(), "--interactive=false"));
        command.addAll(List.of(arguments));
        String verb = Stream.of(arguments).filter(argument -> !argument.startsWith("--")).findFirst().orElse("");
        ChildProcess.run("asadmin " + verb, command, log.getParent(), environment, log, timeout);
    }
}
