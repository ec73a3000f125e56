package io.github.txinbox.sample;

import jakarta.ejb.ConcurrencyManagement;
import jakarta.ejb.ConcurrencyManagementType;
import jakarta.ejb.Singleton;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * What the sample counted per batch since the application started (in memory): messages and orders sent, deliveries
 * and the listeners they went to, handler runs, and the shortest time between two attempts at one order. Each demo
 * batch has an id of its own, carried by its messages, so a batch's counts never mix with another's.
 */
@Singleton
@ConcurrencyManagement(ConcurrencyManagementType.BEAN)
public class Counters {

    private final ConcurrentMap<String, Batch> batches = new ConcurrentHashMap<>();

    /** Records what a batch sent: this many messages, for this many orders and poison orders. */
    public void sent(String batch, long messages, int orders, int poison) {
        Batch counts = batch(batch);
        counts.sent.addAndGet(messages);
        counts.orders.addAndGet(orders);
        counts.poison.addAndGet(poison);
    }

    /** Records a delivery (an onMessage call of the named listener), before the inbox decides on it. */
    public void delivered(String batch, String listener, boolean redelivered) {
        Batch counts = batch(batch);
        counts.listeners.add(listener);
        counts.deliveries.incrementAndGet();
        counts.lastDelivery.set(System.nanoTime());
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
     * @return sent, orders and poison (what {@code demo} sent), deliveries (every onMessage call), redeliveries (of
     *         those, JMSRedelivered), handled (the handler ran), failures (the handler asked for a retry),
     *         duplicatesSkipped (deliveries the inbox skipped: deliveries minus handled), and shortestRetryGapMillis
     *         (-1 before any retry); all 0 for a batch never seen
     */
    public Map<String, Long> snapshot(String batch) {
        Batch counts = batches.getOrDefault(batch, new Batch());
        long gap = counts.shortestRetryGap.get();
        Map<String, Long> snapshot = new LinkedHashMap<>();
        snapshot.put("sent", counts.sent.get());
        snapshot.put("orders", counts.orders.get());
        snapshot.put("poison", counts.poison.get());
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

    /**
     * Tells whether a batch has had no delivery for a while.
     *
     * @param batch the batch id
     * @param quiet how long without a delivery
     * @return true when its last delivery is at least that long ago, or it has had none
     */
    public boolean quietFor(String batch, Duration quiet) {
        long last = batches.getOrDefault(batch, new Batch()).lastDelivery.get();
        return last == 0 || System.nanoTime() - last >= quiet.toNanos();
    }

    private Batch batch(String batch) {
        return batches.computeIfAbsent(batch, b -> new Batch());
    }

    private static final class Batch {
        final Set<String> listeners = ConcurrentHashMap.newKeySet();
        final AtomicLong sent = new AtomicLong();
        final AtomicLong orders = new AtomicLong();
        final AtomicLong poison = new AtomicLong();
        final AtomicLong lastDelivery = new AtomicLong();
        final AtomicLong deliveries = new AtomicLong();
        final AtomicLong redeliveries = new AtomicLong();
        final AtomicLong handled = new AtomicLong();
        final AtomicLong failures = new AtomicLong();
        final ConcurrentMap<String, Long> lastAttempt = new ConcurrentHashMap<>();
        final AtomicLong shortestRetryGap = new AtomicLong(Long.MAX_VALUE);
    }
}
