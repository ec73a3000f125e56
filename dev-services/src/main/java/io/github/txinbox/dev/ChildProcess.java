package io.github.txinbox.dev;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import java.util.stream.Stream;

/**
 * A process the tests or the sample start: a server, a server's command-line tool, PostgreSQL's {@code pg_ctl}, a
 * broker. Its output goes to a log file; it runs with this JVM's JDK ({@code JAVA_HOME} and GlassFish's
 * {@code AS_JAVA}); it is stopped by its own process handle and its descendants', never by name. The one process
 * runner of the integration tests' harness and of the sample's launcher.
 */
public final class ChildProcess implements AutoCloseable {

    private final String what;
    private final Process process;
    private final Path log;
    private final long from;

    private ChildProcess(String what, Process process, Path log, long from) {
        this.what = what;
        this.process = process;
        this.log = log;
        this.from = from;
    }

    /**
     * Starts a process whose output is appended to a log.
     *
     * @param what        what it is, for messages ("WildFly", "pg_ctl stop")
     * @param command     the program and its arguments
     * @param directory   where it runs
     * @param environment variables added to this JVM's environment
     * @param log         the log its standard output and error are appended to
     * @return the running process
     */
    public static ChildProcess start(String what, List<String> command, Path directory, Map<String, String> environment,
            Path log) {
        return start(what, command, directory, environment, name -> false, log);
    }

    /**
     * Starts a process whose output is appended to a log, without some of this JVM's environment variables.
     *
     * @param what        what it is, for messages
     * @param command     the program and its arguments
     * @param directory   where it runs
     * @param environment variables added to this JVM's environment
     * @param unset       which of this JVM's variables the process does not inherit
     * @param log         the log its standard output and error are appended to
     * @return the running process
     */
    public static ChildProcess start(String what, List<String> command, Path directory, Map<String, String> environment,
            Predicate<String> unset, Path log) {
        try {
            Files.createDirectories(log.toAbsolutePath().getParent());
            long from = Files.exists(log) ? Files.size(log) : 0;
            ProcessBuilder builder = new ProcessBuilder(command).directory(directory.toFile()).redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()));
            builder.environment().put("JAVA_HOME", System.getProperty("java.home"));
            builder.environment().put("AS_JAVA", System.getProperty("java.home"));
            builder.environment().keySet().removeIf(unset);
            builder.environment().putAll(environment);
            Process process = builder.start();
            // Nothing it runs reads its input: a prompt fails at once instead of waiting for an answer.
            process.getOutputStream().close();
            return new ChildProcess(what, process, log, from);
        } catch (IOException e) {
            throw new UncheckedIOException("Could not start " + what + ": " + String.join(" ", command), e);
        }
    }

    /**
     * Runs a command to its end, its output appended to a log, and fails when it fails or outlives its time.
     *
     * @param what        what it is, for messages
     * @param command     the program and its arguments
     * @param directory   where it runs
     * @param environment variables added to this JVM's environment
     * @param log         the log its output is appended to
     * @param timeout     how long it may take
     * @throws IllegalStateException when it exits with another status than 0 (its output in the message) or does not
     *                               finish in time (it is then killed)
     */
    public static void run(String what, List<String> command, Path directory, Map<String, String> environment,
            Path log, Duration timeout) {
        ChildProcess running = start(what, command, directory, environment, log);
        if (!running.waitFor(timeout)) {
            running.kill();
            throw new IllegalStateException(what + " did not finish in " + timeout + ": " + String.join(" ", command)
                    + "; see " + log);
        }
        if (running.process.exitValue() != 0) {
            throw new IllegalStateException(what + " failed (exit " + running.process.exitValue() + "): "
                    + String.join(" ", command) + "\n" + running.output());
        }
    }

    /**
     * Waits until the process's output shows that it is ready, and fails, stopping it, when the output shows that it
     * failed, when it exits first, or when the time is up.
     *
     * @param ready   whether the output so far shows it ready
     * @param failed  whether the output so far shows that it failed
     * @param timeout how long it may take
     * @throws IllegalStateException when it is not ready in time, with its output
     */
    public void awaitReady(Predicate<String> ready, Predicate<String> failed, Duration timeout) {
        if (!awaitOutput(ready, failed, timeout)) {
            throw new IllegalStateException(what + " (pid " + process.pid() + ") exited (status "
                    + process.exitValue() + ") before it was ready; its output:\n" + output());
        }
    }

    /**
     * Waits until the process's output shows that it is ready, or until it exits (a server that halts itself at a
     * crash point while it starts, for one); fails, stopping it, when the output shows that it failed or when the time
     * is up.
     *
     * @param ready   whether the output so far shows it ready
     * @param failed  whether the output so far shows that it failed
     * @param timeout how long it may take
     * @return true once it is ready, false when it exited before
     * @throws IllegalStateException when it failed or is not ready in time, with its output
     */
    public boolean awaitOutput(Predicate<String> ready, Predicate<String> failed, Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            boolean alive = process.isAlive();
            String output = output();
            if (ready.test(output)) {
                return true;
            }
            if (!alive) {
                return false;
            }
            boolean failure = failed.test(output);
            if (failure || System.nanoTime() > deadline) {
                close();
                throw new IllegalStateException(what + " (pid " + process.pid() + ") is not ready ("
                        + (failure ? "failed" : "timed out after " + timeout) + "); its output:\n" + output());
            }
            sleep(200);
        }
    }

    /**
     * Returns what the process wrote so far.
     *
     * @return its output since it started
     */
    public String output() {
        try {
            byte[] bytes = Files.readAllBytes(log);
            return new String(bytes, (int) Math.min(from, bytes.length), (int) Math.max(0, bytes.length - from),
                    StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("Could not read " + log, e);
        }
    }

    /**
     * Returns the process's id.
     *
     * @return the pid of the process started (a start script's, when it runs the JVM as its child)
     */
    public long pid() {
        return process.pid();
    }

    /**
     * Tells whether the process runs.
     *
     * @return whether it is alive
     */
    public boolean isAlive() {
        return process.isAlive();
    }

    /**
     * Waits until the process has ended.
     *
     * @param timeout how long to wait
     * @return its exit status
     * @throws IllegalStateException when it still runs after the timeout (it is left running)
     */
    public int awaitExit(Duration timeout) {
        if (!waitFor(timeout)) {
            throw new IllegalStateException(what + " (pid " + process.pid() + ") still runs after " + timeout);
        }
        return process.exitValue();
    }

    /**
     * Asks the process to stop, as Ctrl+C or {@code kill} would: SIGTERM to its JVM (the process itself when it is
     * one), which runs its shutdown hooks; does not wait.
     */
    public void terminate() {
        terminate(family());
    }

    /** SIGTERM to the first JVM of the family, or to the process itself when none is one. */
    private void terminate(List<ProcessHandle> family) {
        family.stream().filter(handle -> handle.info().command().map(command -> command.endsWith("/java"))
                .orElse(false)).findFirst().ifPresentOrElse(ProcessHandle::destroy, () -> process.toHandle().destroy());
    }

    /**
     * Kills the process and its descendants (a start script's JVM among them) with SIGKILL, as a crash would, and
     * waits until the process is gone.
     *
     * @throws IllegalStateException when it does not die within 30 seconds
     */
    public void kill() {
        family().forEach(ProcessHandle::destroyForcibly);
        if (!waitFor(Duration.ofSeconds(30))) {
            throw new IllegalStateException(what + " (pid " + process.pid() + ") did not die of SIGKILL within 30 s");
        }
    }

    /**
     * Stops the process if it still runs: SIGTERM to its JVM (an orderly shutdown), then SIGKILL to what is left of
     * it, or to all of it after a minute.
     */
    @Override
    public void close() {
        if (!process.isAlive()) {
            return;
        }
        List<ProcessHandle> family = family();
        terminate(family);
        if (waitFor(Duration.ofMinutes(1))) {
            family.forEach(ProcessHandle::destroyForcibly);
        } else {
            kill();
        }
    }

    /** The process and its descendants now: a start script and the JVM it started. */
    private List<ProcessHandle> family() {
        List<ProcessHandle> family = new ArrayList<>();
        family.add(process.toHandle());
        try (Stream<ProcessHandle> descendants = process.descendants()) {
            descendants.forEach(family::add);
        }
        return family;
    }

    private boolean waitFor(Duration timeout) {
        try {
            return process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("Interrupted", e);
        }
    }
}
