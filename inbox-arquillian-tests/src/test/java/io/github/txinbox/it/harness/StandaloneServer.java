package io.github.txinbox.it.harness;

import io.github.txinbox.dev.ChildProcess;
import java.io.IOException;
import java.net.MalformedURLException;
import java.net.URL;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.jboss.shrinkwrap.api.spec.WebArchive;

/**
 * A server started by hand beside the one Arquillian runs ({@link Server#startStandalone}), for what Arquillian
 * cannot do: kill it with SIGKILL and start it again on the same data (the broker's store and the transaction log).
 * Its HTTP port is on 127.0.0.1: {@value #HTTP_PORT} on WildFly, 9380 on Open Liberty and a free one on Payara Micro,
 * so that the legs {@code .ci/run} runs side by side never meet on a port.
 */
public final class StandaloneServer implements AutoCloseable {

    /** The HTTP port of the WildFly servers started here. */
    public static final int HTTP_PORT = 8380;

    private final ChildProcess process;
    private final String context;
    private final int port;

    StandaloneServer(ChildProcess process, String context) {
        this(process, context, HTTP_PORT);
    }

    StandaloneServer(ChildProcess process, String context, int port) {
        this.process = process;
        this.context = context;
        this.port = port;
    }

    /**
     * Starts this run's server in a directory of its own with one WAR, on the session's database.
     *
     * @param name    the directory's name, under {@code target/killed}
     * @param war     the WAR, exported into the directory on the first start
     * @param timeout how long the start may take
     * @return the running server
     */
    public static StandaloneServer start(String name, WebArchive war, Duration timeout)
            throws IOException {
        return Server.current().startStandalone(name, war, timeout, System.getProperty("inbox.db.url"), List.of());
    }

    /**
     * Returns the directory of a server started by hand.
     *
     * @param name the directory's name
     * @return {@code target/killed/NAME}
     */
    static Path directory(String name) {
        return Server.workDirectory().resolve("killed").resolve(name);
    }

    /**
     * Returns the deployment's base URL.
     *
     * @return the URL
     */
    public URL url() {
        try {
            return new URL("http://127.0.0.1:" + port() + "/" + context + "/");
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
        return process.output();
    }

    /**
     * Returns the server's HTTP port on 127.0.0.1.
     *
     * @return the port
     */
    public int port() {
        return port;
    }

    /**
     * Returns the process id of the server (of its start script, where one runs the JVM).
     *
     * @return the pid
     */
    public long pid() {
        return process.pid();
    }

    /** Kills the server's JVM with SIGKILL, as a crash would, and waits until it is gone. */
    public void kill() {
        process.kill();
    }

    /** Stops the server if it still runs: SIGTERM to its JVM (an orderly shutdown), SIGKILL after a minute. */
    @Override
    public void close() {
        process.close();
    }
}
