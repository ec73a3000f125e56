package io.github.txinbox.sample.web;

import java.lang.management.ManagementFactory;
import java.util.LinkedHashMap;
import java.util.Map;
import javax.management.JMException;
import javax.management.ObjectName;

/**
 * Reads the message counts of OpenMQ's destinations from the broker's own statistics: its destination monitor
 * MBeans, which the broker Payara runs in its own JVM (the default, {@code EMBEDDED}) registers with the platform
 * MBean server. Unlike browsing a queue, this does not race the consumers.
 */
final class BrokerStatistics {

    private BrokerStatistics() {
    }

    /**
     * Returns the messages stored in each queue, by the name given; a queue whose count cannot be read maps to
     * {@code null}, and {@code brokerStatistics} says why.
     *
     * @param queues label to physical queue name
     * @return the counts, and {@code brokerStatistics}: {@code "ok"} or what went wrong
     */
    static Map<String, Object> queued(Map<String, String> queues) {
        Map<String, Object> counts = new LinkedHashMap<>();
        String problem = null;
        for (Map.Entry<String, String> queue : queues.entrySet()) {
            try {
                ObjectName monitor = new ObjectName("com.sun.messaging.jms.server:type=Destination,subtype=Monitor,"
                        + "desttype=q,name=" + ObjectName.quote(queue.getValue()));
                Object stored = ManagementFactory.getPlatformMBeanServer().getAttribute(monitor, "NumMsgs");
                counts.put(queue.getKey(), ((Number) stored).longValue());
            } catch (JMException | RuntimeException e) {
                counts.put(queue.getKey(), null);
                problem = "cannot read the count of " + queue.getValue() + ": " + e;
            }
        }
        counts.put("brokerStatistics", problem == null ? "ok" : problem);
        return counts;
    }
}
