package io.github.txinbox.bench;

import io.github.txinbox.it.app.TestDatabase;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * Processor time used so far by the processes a client-side benchmark runs on, in nanoseconds: the application
 * server (a Payara Micro process started by this JVM), PostgreSQL (the postmaster and its children, when the server
 * runs on this machine) and this JVM (the embedded broker and the sender). A process whose time cannot be read counts
 * as -1, and so does every difference involving it.
 *
 * @param server   the application server's processor time
 * @param database PostgreSQL's processor time
 * @param client   this JVM's processor time
 */
record CpuTime(long server, long database, long client) {

    /** A database connection to open, to find PostgreSQL's postmaster. */
    @FunctionalInterface
    interface Database {
        Connection connect() throws SQLException;
    }

    static CpuTime now() {
        return now(TestDatabase::connect);
    }

    /** As {@link #now()}, with the PostgreSQL server the given connections reach. */
    static CpuTime now(Database database) {
        return new CpuTime(
                sum(ProcessHandle.current().descendants().filter(CpuTime::isPayaraMicro)),
                database(database),
                sum(Stream.of(ProcessHandle.current())));
    }

    /**
     * As {@link #now()}, for a server started otherwise than as this JVM's child and a broker in a process of its own:
     * the server is every process whose command line holds the server's directory, and the broker's process counts
     * with this JVM's (the sender).
     *
     * @param serverHome the server's directory, as its command line names it
     * @param broker     the broker's process
     * @return the processor time so far
     */
    static CpuTime now(String serverHome, long broker) {
        return new CpuTime(
                sum(ProcessHandle.allProcesses().filter(process -> process.info().commandLine()
                        .map(line -> line.contains(serverHome)).orElse(false))),
                database(TestDatabase::connect),
                sum(Stream.concat(Stream.of(ProcessHandle.current()), ProcessHandle.of(broker).stream())));
    }

    /** The processor time of PostgreSQL's postmaster and its children; -1 where they cannot be read. */
    private static long database(Database database) {
        return postmaster(database).map(p -> sum(Stream.concat(Stream.of(p), p.descendants()))).orElse(-1L);
    }

    CpuTime minus(CpuTime earlier) {
        return new CpuTime(difference(server, earlier.server), difference(database, earlier.database),
                difference(client, earlier.client));
    }

    CpuTime plus(CpuTime other) {
        return new CpuTime(sumOf(server, other.server), sumOf(database, other.database), sumOf(client, other.client));
    }

    long total() {
        return server < 0 || database < 0 || client < 0 ? -1 : server + database + client;
    }

    private static long difference(long later, long earlier) {
        return later < 0 || earlier < 0 ? -1 : later - earlier;
    }

    private static long sumOf(long a, long b) {
        return a < 0 || b < 0 ? -1 : a + b;
    }

    private static boolean isPayaraMicro(ProcessHandle process) {
        return process.info().commandLine().map(line -> line.contains("payara-micro")).orElse(false);
    }

    /**
     * The processes' processor time; -1 when none tells it. A process that does not (one that is exiting, such as the
     * backend of a closed connection) is left out.
     */
    private static long sum(Stream<ProcessHandle> processes) {
        long total = 0;
        boolean any = false;
        for (ProcessHandle process : (Iterable<ProcessHandle>) processes::iterator) {
            Optional<Duration> cpu = process.info().totalCpuDuration();
            if (cpu.isPresent()) {
                total += cpu.get().toNanos();
                any = true;
            }
        }
        return any ? total : -1;
    }

    /** PostgreSQL's postmaster, from the first line of {@code postmaster.pid} in its data directory, if local. */
    private static Optional<ProcessHandle> postmaster(Database database) {
        try (Connection connection = database.connect();
                Statement statement = connection.createStatement();
                ResultSet row = statement.executeQuery("SELECT current_setting('data_directory')")) {
            row.next();
            Path pidFile = Path.of(row.getString(1), "postmaster.pid");
            if (!Files.isReadable(pidFile)) {
                return Optional.empty();
            }
            return ProcessHandle.of(Long.parseLong(Files.readAllLines(pidFile).get(0).trim()));
        } catch (SQLException | IOException | RuntimeException e) {
            return Optional.empty();
        }
    }
}
