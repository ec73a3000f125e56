package io.github.txinbox.sample;

import jakarta.ejb.ConcurrencyManagement;
import jakarta.ejb.ConcurrencyManagementType;
import jakarta.ejb.Singleton;
import java.util.Map;
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
     *         ran: the inbox claimed the order), failures (the handler threw), duplicates (deliveries the inbox
     *         skipped: deliveries minus handled)
     */
    public Map<String, Long> snapshot() {
        long d = deliveries.get();
        long h = handled.get();
        return Map.of("sent", sent.get(), "deliveries", d, "redeliveries", redeliveries.get(), "handled", h,
                "failures", failures.get(), "duplicatesSkipped", d - h);
    }
}
