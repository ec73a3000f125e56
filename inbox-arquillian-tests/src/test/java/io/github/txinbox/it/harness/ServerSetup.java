package io.github.txinbox.it.harness;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;

/** What the set-up of WildFly, Open Liberty and GlassFish shares: the build's settings, the driver, the tools. */
final class ServerSetup {

    private ServerSetup() {
    }

    /**
     * Returns a system property the build sets.
     *
     * @param property the property
     * @return its value
     * @throws IllegalStateException when it is not set (the tests were not started by Maven)
     */
    static String required(String property) {
        String value = System.getProperty(property);
        if (value == null || value.isBlank()) {
            throw new IllegalStateException(property + " is not set: run the leg through Maven (mvn verify "
                    + "-Dit.server=" + Server.current().name().toLowerCase(Locale.ROOT) + ")");
        }
        return value;
    }

    /**
     * Returns the PostgreSQL driver among the deployment's libraries, which the build copies.
     *
     * @return the jar
     */
    static Path postgresqlDriver() {
        File[] drivers = new File(required("txinbox.it.deploymentLibs"))
                .listFiles((directory, name) -> name.startsWith("postgresql-") && name.endsWith(".jar"));
        if (drivers == null || drivers.length != 1) {
            throw new IllegalStateException("Expected one PostgreSQL driver in "
                    + required("txinbox.it.deploymentLibs"));
        }
        return drivers[0].toPath();
    }

    /**
     * Runs a server's command-line tool with this JVM's JDK, its output appended to a log, and fails when it fails.
     *
     * @param directory where it runs
     * @param log       the log its output goes to
     * @param timeout   how long it may take
     * @param command   the tool and its arguments
     */
    static void run(Path directory, Path log, Duration timeout, List<String> command) throws IOException {
        ProcessBuilder builder = new ProcessBuilder(command).directory(directory.toFile()).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()));
        builder.environment().put("JAVA_HOME", System.getProperty("java.home"));
        builder.environment().put("AS_JAVA", System.getProperty("java.home"));
        Process process = builder.start();
        String described = String.join(" ", command);
        try {
            if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
                process.destroyForcibly();
                throw new IllegalStateException(described + " did not finish in " + timeout + "; see " + log);
            }
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
            throw new IllegalStateException("Interrupted while " + described + " ran", e);
        }
        if (process.exitValue() != 0) {
            throw new IllegalStateException(described + " failed (exit " + process.exitValue() + "):\n"
                    + Files.readString(log));
        }
    }
}
