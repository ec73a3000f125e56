package io.github.txinbox.sample;

import jakarta.ejb.ConcurrencyManagement;
import jakarta.ejb.ConcurrencyManagementType;
import jakarta.ejb.Singleton;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * What the sample counted per batch since the application started (in memory): messages sent, deliveries and the
 * listeners they went to, handler runs, and the shortest time between two attempts at one order. Each demo batch has an id of its own, carried by its
 * messages, so a batch's counts never mix with another's.
 */
@Singleton
@ConcurrencyManagement(ConcurrencyManagementType.BEAN)
public class Counters {

    private final ConcurrentMap<String, Batch> batches = new ConcurrentHashMap<>();

    /** Records that a batch sent this many messages. */
    public void sent(String batch, long count) {
        batch(batch).sent.addAndGet(count);
    }

    /** Records a delivery (an onMessage call of the named listener), before the inbox decides on it. */
    public void delivered(String batch, String listener, boolean redelivered) {
        Batch counts = batch(batch);
        counts.listeners.add(listener);
        counts.deliveries.incrementAndGet();
        if (redelivered) {
            counts.redeliveries.incrementAndGet();
        }
    }

    /** Records a handler run: the inbox claimed the order and called the handler. */
    public void handled(String batch) {
        batch(batch).handled.incrementAndGet();
    }

    /** Records a handler run that asked for a retry. */
    public void failed(String batch) {
        batch(batch).failures.incrementAndGet();
    }

    /** Records an attempt at an order; from the second on, how long after the previous one it came. */
    public void attempt(String batch, String orderId, int delivery) {
        Batch counts = batch(batch);
        long now = System.currentTimeMillis();
        Long previous = counts.lastAttempt.put(orderId, now);
        if (delivery > 1 && previous != null) {
            counts.shortestRetryGap.accumulateAndGet(now - previous, Math::min);
        }
    }

    /**
     * Returns a batch's counts.
     *
     * @param batch the batch id
     * @return sent, deliveries (every onMessage call), redeliveries (of those, JMSRedelivered), handled (the handler
     *         ran), failures (the handler asked for a retry), duplicatesSkipped (deliveries the inbox skipped:
     *         deliveries minus handled), and shortestRetryGapMillis (-1 before any retry); all 0 for a batch never
     *         seen
     */
    public Map<String, Long> snapshot(String batch) {
        Batch counts = batches.getOrDefault(batch, new Batch());
        long gap = counts.shortestRetryGap.get();
        Map<String, Long> snapshot = new LinkedHashMap<>();
        snapshot.put("sent", counts.sent.get());
        snapshot.put("deliveries", counts.deliveries.get());
        snapshot.put("redeliveries", counts.redeliveries.get());
        snapshot.put("handled", counts.handled.get());
        snapshot.put("failures", counts.failures.get());
        snapshot.put("duplicatesSkipped", counts.deliveries.get() - counts.handled.get());
        snapshot.put("shortestRetryGapMillis", gap == Long.MAX_VALUE ? -1 : gap);
        return snapshot;
    }

    /**
     * Returns the listeners that received a batch's messages.
     *
     * @param batch the batch id
     * @return their class names, sorted and separated by commas; empty for a batch never seen
     */
    public String listeners(String batch) {
        return String.join(",", new TreeSet<>(batches.getOrDefault(batch, new Batch()).listeners));
    }

    private Batch batch(String batch) {
        return batches.computeIfAbsent(batch, b -> new Batch());
    }

    private static final class Batch {
        final Set<String> listeners = ConcurrentHashMap.newKeySet();
        final AtomicLong sent = new AtomicLong();
        final AtomicLong deliveries = new AtomicLong();
        final AtomicLong redeliveries = new AtomicLong();
        final AtomicLong handled = new AtomicLong();
        final AtomicLong failures = new AtomicLong();
        final ConcurrentMap<String, Long> lastAttempt = new ConcurrentHashMap<>();
        final AtomicLong shortestRetryGap = new AtomicLong(Long.MAX_VALUE);
    }
}
