package io.github.txinbox.it.harness;

import java.time.Duration;
import java.util.function.BooleanSupplier;

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
}
