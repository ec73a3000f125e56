package io.github.txinbox.sample.launcher;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

/** Reads the listening TCP sockets with {@code ss -ltnpH}, to prove that the sample listens on 127.0.0.1 only. */
final class LoopbackCheck {

    private LoopbackCheck() {
    }

    /** Selects the sockets of a process. */
    static Predicate<String> ofProcess(long pid) {
        return line -> line.contains("pid=" + pid + ",");
    }

    /** Selects the sockets on a port. */
    static Predicate<String> onPort(int port) {
        return line -> localAddress(line).endsWith(":" + port);
    }

    /**
     * Returns the selected listening sockets.
     *
     * @param selected which sockets
     * @return one {@code ss} line per socket
     */
    static List<String> listeners(Predicate<String> selected) {
        String output;
        try {
            Process ss = new ProcessBuilder("ss", "-ltnpH").redirectErrorStream(true).start();
            output = new String(ss.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            ss.waitFor(30, TimeUnit.SECONDS);
        } catch (IOException e) {
            throw new LauncherException("Could not run ss (Debian: apt-get install iproute2): " + e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new LauncherException("Interrupted");
        }
        return output.lines().map(String::trim).filter(line -> !line.isEmpty()).filter(selected).toList();
    }

    /** Whether a socket's local address is on the loopback interface. */
    static boolean onLoopback(String line) {
        String local = localAddress(line);
        return local.startsWith("127.") || local.startsWith("[::ffff:127.") || local.startsWith("[::1]");
    }

    private static String localAddress(String line) {
        String[] columns = line.trim().split("\\s+");
        return columns.length > 3 ? columns[3] : "";
    }
}
