package io.github.txinbox.sample;

import jakarta.ejb.ConcurrencyManagement;
import jakarta.ejb.ConcurrencyManagementType;
import jakarta.ejb.Singleton;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.atomic.AtomicLong;

/** What the sample counted since it started (in memory): messages sent, deliveries, handler runs. */
@Singleton
@ConcurrencyManagement(ConcurrencyManagementType.BEAN)
public class Counters {

    private final AtomicLong sent = new AtomicLong();
    private final AtomicLong deliveries = new AtomicLong();
    private final AtomicLong redeliveries = new AtomicLong();
    private final AtomicLong handled = new AtomicLong();
    private final AtomicLong failures = new AtomicLong();
    private final ConcurrentMap<String, Long> lastAttempt = new ConcurrentHashMap<>();
    private final AtomicLong shortestRetryGap = new AtomicLong(Long.MAX_VALUE);

    /** Records an attempt at an order; from the second on, how long after the previous one it came. */
    public void attempt(String orderId, int delivery) {
        long now = System.currentTimeMillis();
        Long previous = lastAttempt.put(orderId, now);
        if (delivery > 1 && previous != null) {
            shortestRetryGap.accumulateAndGet(now - previous, Math::min);
        }
    }

    public void sent(long count) {
        sent.addAndGet(count);
    }

    public void delivered(boolean redelivered) {
        deliveries.incrementAndGet();
        if (redelivered) {
            redeliveries.incrementAndGet();
        }
    }

    public void handled() {
        handled.incrementAndGet();
    }

    public void failed() {
        failures.incrementAndGet();
    }

    /**
     * Returns the counts.
     *
     * @return sent, deliveries (every onMessage call), redeliveries (of those, JMSRedelivered), handled (the handler
     *         ran: the inbox claimed the order), failures (the handler asked for a retry), duplicates (deliveries
     *         the inbox skipped: deliveries minus handled), and the shortest time between two attempts at one order
     *         (-1 before any retry)
     */
    public Map<String, Long> snapshot() {
        long d = deliveries.get();
        long h = handled.get();
        long gap = shortestRetryGap.get();
        return Map.of("sent", sent.get(), "deliveries", d, "redeliveries", redeliveries.get(), "handled", h,
                "failures", failures.get(), "duplicatesSkipped", d - h,
                "shortestRetryGapMillis", gap == Long.MAX_VALUE ? -1 : gap);
    }
}
