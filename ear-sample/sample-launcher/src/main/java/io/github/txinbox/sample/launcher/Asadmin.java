package io.github.txinbox.sample.launcher;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** Runs Payara's asadmin against the sample's domain, failing loudly with its output when a command fails. */
final class Asadmin {

    private final Path asadmin;

    Asadmin(Path payaraHome) {
        this.asadmin = payaraHome.resolve("bin").resolve("asadmin");
    }

    /** Runs one command; returns its output. */
    String run(String... arguments) {
        List<String> command = new ArrayList<>();
        command.add(asadmin.toString());
        command.add("--interactive=false");
        command.addAll(List.of(arguments));
        try {
            Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
            process.getOutputStream().close();
            String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (!process.waitFor(10, TimeUnit.MINUTES)) {
                process.destroyForcibly();
                throw new LauncherException("asadmin " + String.join(" ", arguments) + " did not finish");
            }
            if (process.exitValue() != 0) {
                throw new LauncherException("asadmin " + String.join(" ", arguments) + " failed (exit "
                        + process.exitValue() + "):\n" + output.strip());
            }
            return output;
        } catch (IOException e) {
            throw new LauncherException("Could not run " + asadmin + ": " + e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new LauncherException("Interrupted while running asadmin " + String.join(" ", arguments));
        }
    }
}
