package io.github.txinbox.it.harness;

import io.github.txinbox.dev.ChildProcess;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Payara Micro started by hand, for what Arquillian's adapter cannot show: it reports a failed deployment only as a
 * missing test servlet. Same JDK, options and loopback settings as the Arquillian container; stopped by its own
 * process handle.
 */
public final class PayaraMicroProcess implements AutoCloseable {

    private static final Pattern URL = Pattern.compile("^\\s*http://[^/:\\s]+:(\\d+)/");

    private final ChildProcess process;

    private PayaraMicroProcess(ChildProcess process) {
        this.process = process;
    }

    /**
     * Starts Payara Micro with the test resource adapter and one WAR, and waits until it has booted.
     *
     * @param war     the WAR to deploy
     * @param timeout how long the boot may take
     * @return the running server
     */
    public static PayaraMicroProcess deploy(Path war, Duration timeout) {
        return deploy(war, timeout, List.of());
    }

    /**
     * Starts Payara Micro with the test resource adapter, one WAR and further Payara Micro options (a
     * {@code --prebootcommandfile} or {@code --postbootcommandfile} among them replaces the shared one), and waits until it has booted.
     *
     * @param war          the WAR to deploy
     * @param timeout      how long the boot may take
     * @param microOptions further Payara Micro options
     * @return the running server
     */
    public static PayaraMicroProcess deploy(Path war, Duration timeout, List<String> microOptions)
            {
        return deploy(war, timeout, microOptions, System.getProperty("txinbox.it.artemis.port"));
    }

    /**
     * Starts Payara Micro as {@link #deploy(Path, Duration, List)} does, with the resource adapter connecting to the
     * broker on another port of 127.0.0.1 than the session broker's.
     *
     * @param war          the WAR to deploy
     * @param timeout      how long the boot may take
     * @param microOptions further Payara Micro options
     * @param brokerPort   the port of the broker
     * @return the running server
     */
    public static PayaraMicroProcess deploy(Path war, Duration timeout, List<String> microOptions, String brokerPort)
            {
        return deploy(war, timeout, microOptions, brokerPort, System.getProperty("inbox.db.url"));
    }

    /**
     * Starts Payara Micro as {@link #deploy(Path, Duration, List, String)} does, with the deployments' datasources
     * pointing at another PostgreSQL database (same user and password) than the session's.
     *
     * @param war          the WAR to deploy
     * @param timeout      how long the boot may take
     * @param microOptions further Payara Micro options
     * @param brokerPort   the port of the broker
     * @param databaseUrl  the JDBC URL the deployments read as {@code inbox.db.url}
     * @return the running server
     */
    public static PayaraMicroProcess deploy(Path war, Duration timeout, List<String> microOptions, String brokerPort,
            String databaseUrl) {
        return deploy(List.of(war), timeout, microOptions, brokerPort, databaseUrl);
    }

    /**
     * Starts Payara Micro with the test resource adapter and several WARs, deployed in this order (one that fails
     * does not stop the next), and waits until it has booted.
     *
     * @param wars         the WARs to deploy
     * @param timeout      how long the boot may take
     * @param microOptions further Payara Micro options
     * @param brokerPort   the port of the broker
     * @param databaseUrl  the JDBC URL the deployments read as {@code inbox.db.url}
     * @return the running server
     */
    public static PayaraMicroProcess deploy(List<Path> wars, Duration timeout, List<String> microOptions,
            String brokerPort, String databaseUrl) {
        List<String> command = PayaraMicro.command(wars, microOptions, brokerPort, databaseUrl);
        command.addAll(List.of("--port", "8080", "--autoBindHttp", "--autoBindRange", "1000"));
        Path log = Server.workDirectory().resolve("payara-micro").resolve(wars.get(0).getFileName() + "-"
                + System.nanoTime() + ".log");
        ChildProcess process = ChildProcess.start("Payara Micro", command, Server.workDirectory(), Map.of(), log);
        process.awaitOutput(output -> PayaraMicro.READY.matcher(output).find(), output -> false, timeout);
        return new PayaraMicroProcess(process);
    }

    /**
     * Returns what the server has printed so far.
     *
     * @return its standard output and error
     */
    public String output() {
        return process.output();
    }

    /**
     * Returns the port of the server's HTTP listener (on 127.0.0.1), as the server printed it when it had booted:
     * the first free one from 8080 ({@code --autoBindHttp}).
     *
     * @return the port
     * @throws IllegalStateException when the server printed no URL
     */
    public int httpPort() {
        for (String line : output().lines().toList()) {
            Matcher url = URL.matcher(line);
            if (url.find()) {
                return Integer.parseInt(url.group(1));
            }
        }
        throw new IllegalStateException("Payara Micro (pid " + process.pid() + ") printed no URL:\n" + output());
    }

    /**
     * Returns the server's process id.
     *
     * @return the pid
     */
    public long pid() {
        return process.pid();
    }

    /**
     * Kills the server as {@code kill -9} would (SIGKILL: no shutdown hook, no transaction completed, no socket
     * closed politely), and waits until the process has gone.
     */
    public void kill() {
        process.kill();
    }

    /** Stops the server: SIGTERM (an orderly shutdown), SIGKILL after a minute. */
    @Override
    public void close() {
        process.close();
    }
}
