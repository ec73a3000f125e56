package io.github.txinbox.it.harness;

import java.time.Duration;
import java.util.function.BooleanSupplier;
import java.util.function.LongSupplier;

/** Polls for a condition that asynchronous processing makes true. */
public final class Await {

    private static final long POLL_MS = 100;

    private Await() {
    }

    /**
     * Waits until the condition holds, checked every {@value #POLL_MS} ms.
     *
     * @param timeout     how long to wait at most
     * @param description what is awaited, for the failure message
     * @param condition   the condition
     * @param timesInARow how many consecutive checks must see it hold
     * @throws AssertionError when it does not hold in time
     */
    public static void until(Duration timeout, String description, BooleanSupplier condition, int timesInARow) {
        long deadline = System.nanoTime() + timeout.toNanos();
        int seen = 0;
        while (true) {
            seen = condition.getAsBoolean() ? seen + 1 : 0;
            if (seen >= timesInARow) {
                return;
            }
            if (System.nanoTime() > deadline) {
                throw new AssertionError("Timed out after " + timeout.toMillis() + " ms waiting for " + description);
            }
            try {
                Thread.sleep(POLL_MS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new AssertionError("Interrupted while waiting for " + description, e);
            }
        }
    }

    /**
     * Waits until the condition holds once.
     *
     * @param timeout     how long to wait at most
     * @param description what is awaited, for the failure message
     * @param condition   the condition
     */
    public static void until(Duration timeout, String description, BooleanSupplier condition) {
        until(timeout, description, condition, 1);
    }

    /**
     * Waits until a count reaches the expected one, then checks that it is exactly that: for what the inbox reports
     * once a transaction has ended, which can come a little after the broker's or the database's own state shows the
     * end (a message already dead-lettered, a redelivery already processed).
     *
     * @param timeout     how long to wait at most
     * @param description what is counted, for the failure messages
     * @param expected    the count
     * @param count       the count now
     */
    public static void count(Duration timeout, String description, long expected, LongSupplier count) {
        until(timeout, expected + " " + description, () -> count.getAsLong() >= expected);
        org.junit.jupiter.api.Assertions.assertEquals(expected, count.getAsLong(), description);
    }
}
