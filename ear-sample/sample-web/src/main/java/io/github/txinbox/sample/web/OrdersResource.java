package io.github.txinbox.sample.web;

import io.github.txinbox.sample.Counters;
import io.github.txinbox.sample.Invoicing;
import io.github.txinbox.sample.OrderPlacedHandler;
import io.github.txinbox.sample.OrderPlacedListener;
import io.github.txinbox.sample.XaOrderPlacedListener;
import jakarta.annotation.Resource;
import jakarta.ejb.EJB;
import jakarta.enterprise.context.RequestScoped;
import jakarta.inject.Inject;
import jakarta.jms.JMSContext;
import jakarta.jms.JMSException;
import jakarta.jms.JMSRuntimeException;
import jakarta.jms.Message;
import jakarta.jms.Queue;
import jakarta.jms.QueueBrowser;
import jakarta.ws.rs.BadRequestException;
import jakarta.ws.rs.DefaultValue;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.time.Duration;
import java.util.Enumeration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.UUID;
import java.util.regex.Pattern;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * Sends demo batches of orders (with deliberate duplicates and failures) and reports what became of each. The orders
 * go to the queue of {@link OrderPlacedListener}, or with {@code sample.xa=true} to that of
 * {@link XaOrderPlacedListener}.
 */
@Path("orders")
@RequestScoped
@Produces(MediaType.APPLICATION_JSON)
public class OrdersResource {

    /** OpenMQ's dead-message queue, where a message goes once its redeliveries are spent. */
    private static final String DEAD_MESSAGE_QUEUE = "mq.sys.dmq";
    private static final Pattern BATCH_ID = Pattern.compile("[0-9a-f]{8}");
    /** The rows of {@link #report}'s table: each label, and the field of the batch's status it shows. */
    private static final String[][] OUTCOME = {{"messages sent", "sent"},
        {"deliveries (onMessage calls)", "deliveries"}, {"  of them redeliveries", "redeliveries"},
        {"handler runs", "handled"}, {"  of them failed (rolled back)", "failures"},
        {"duplicates skipped by the inbox", "duplicatesSkipped"}, {"invoices", "invoices"},
        {"orders invoiced", "invoicedOrders"}, {"orders invoiced twice", "ordersInvoicedTwice"},
        {"inbox markers", "markers"}, {"dead-lettered (mq.sys.dmq)", "deadLettered"},
        {"still queued (every batch)", "queued"},
        {"shortest wait before a retry, ms", "shortestRetryGapMillis"}};

    @Inject
    JMSContext jms;

    @Resource(lookup = "jms/OrderPlaced")
    Queue orderPlaced;

    @Resource(lookup = "jms/OrderPlacedXa")
    Queue orderPlacedXa;

    @Inject
    @ConfigProperty(name = "sample.xa", defaultValue = "false")
    boolean xa;

    @EJB
    Counters counters;

    @EJB
    Invoicing invoicing;

    /**
     * Sends a demo batch: {@code orders} distinct orders, the first {@code duplicates} of them sent a second time,
     * {@code failing} of them (from the end) flagged to fail on their first delivery, and {@code poison} more orders
     * that fail on every delivery. Every message carries the batch's id.
     *
     * @return what was sent, with the batch id to ask {@code status} about
     */
    @POST
    @Path("demo")
    public Map<String, Object> demo(@QueryParam("orders") @DefaultValue("100") int orders,
            @QueryParam("duplicates") @DefaultValue("20") int duplicates,
            @QueryParam("failing") @DefaultValue("5") int failing,
            @QueryParam("poison") @DefaultValue("1") int poison) {
        if (orders < 1 || orders > 100_000 || duplicates < 0 || duplicates > orders || failing < 0
                || failing > orders || poison < 0 || poison > 100) {
            throw badRequest("Need 1 <= orders <= 100000, 0 <= duplicates <= orders, 0 <= failing <= orders, "
                    + "0 <= poison <= 100");
        }
        String batch = UUID.randomUUID().toString().substring(0, 8);
        int sent = 0;
        for (int i = 0; i < orders; i++) {
            String orderId = "order-" + batch + "-" + i;
            boolean failFirst = i >= orders - failing;
            int copies = i < duplicates ? 2 : 1;
            for (int copy = 0; copy < copies; copy++) {
                send(batch, orderId, 10 + i % 90, failFirst, false);
                sent++;
            }
        }
        for (int i = 0; i < poison; i++) {
            send(batch, "poison-" + batch + "-" + i, 1, false, true);
            sent++;
        }
        counters.sent(batch, sent, orders, poison);
        Map<String, Object> result = new LinkedHashMap<>();
        result.put("batch", batch);
        result.put("orders", orders);
        result.put("messagesSent", sent);
        result.put("duplicatesSent", duplicates);
        result.put("failingFirstDelivery", failing);
        result.put("poison", poison);
        return result;
    }

    private static BadRequestException badRequest(String message) {
        return new BadRequestException(Response.status(Response.Status.BAD_REQUEST).type(MediaType.TEXT_PLAIN)
                .entity(message + "\n").build());
    }

    private void send(String batch, String orderId, int amount, boolean failFirst, boolean poison) {
        try {
            Message message = jms.createMessage();
            message.setStringProperty(OrderPlacedHandler.BATCH, batch);
            message.setStringProperty(OrderPlacedHandler.ORDER_ID, orderId);
            message.setStringProperty(OrderPlacedHandler.AMOUNT, Integer.toString(amount));
            message.setBooleanProperty(OrderPlacedHandler.FAIL_FIRST, failFirst);
            message.setBooleanProperty(OrderPlacedHandler.POISON, poison);
            jms.createProducer().send(xa ? orderPlacedXa : orderPlaced, message);
        } catch (JMSException e) {
            throw new IllegalStateException("Could not send order " + orderId, e);
        }
    }

    /**
     * Reports what became of a batch: its counters, the listeners its messages went to, its table rows, the batch's
     * messages in the broker's dead-message queue, the messages the queue still holds (for every batch, from the
     * broker's statistics), and whether it has settled: every order invoiced, every poison order dead-lettered,
     * nothing queued, and no delivery for 2 s.
     *
     * @param batch the id {@code demo} returned
     * @return the status
     */
    @GET
    @Path("status")
    public Map<String, Object> status(@QueryParam("batch") String batch) {
        if (batch == null || !BATCH_ID.matcher(batch).matches()) {
            throw badRequest("Need batch=<the 8-character id that POST demo returned>");
        }
        Map<String, Object> status = new LinkedHashMap<>();
        status.put("batch", batch);
        status.putAll(counters.snapshot(batch));
        status.put("listeners", counters.listeners(batch));
        status.putAll(invoicing.tableCounts(batch));
        String queue = xa ? XaOrderPlacedListener.QUEUE : OrderPlacedListener.QUEUE;
        status.putAll(BrokerStatistics.queued(Map.of("queued", queue)));
        putDeadLettered(status, batch);
        // A count the broker could not tell (null) does not hold the batch back.
        status.put("settled", count(status, "orders", 0) > 0
                && count(status, "invoicedOrders", 0) >= count(status, "orders", 0)
                && count(status, "queued", 0) <= 0 && count(status, "deadLettered", Long.MAX_VALUE) >= count(status,
                "poison", 0) && counters.quietFor(batch, Duration.ofSeconds(2)));
        return status;
    }

    /**
     * Reports what became of a batch as a table, the one the launcher prints once the batch has settled: a count of
     * {@link #status} on each row, {@code ?} where it is unknown.
     *
     * @param batch the id {@code demo} returned
     * @return the table, as text
     */
    @GET
    @Path("report")
    @Produces(MediaType.TEXT_PLAIN)
    public String report(@QueryParam("batch") String batch) {
        Map<String, Object> status = status(batch);
        StringBuilder table = new StringBuilder("  delivered to: " + status.get("listeners") + "\n"
                + "  outcome of the batch               count\n  ---------------------------------  -----\n");
        for (String[] row : OUTCOME) {
            long count = count(status, row[1], -1);
            table.append(String.format("  %-33s  %5s%n", row[0], count < 0 ? "?" : Long.toString(count)));
        }
        if (!"ok".equals(status.get("brokerStatistics"))) {
            table.append("  ? the broker's statistics could not be read: " + status.get("brokerStatistics") + "\n");
        }
        return table.toString();
    }

    /**
     * Counts the batch's messages in OpenMQ's dead-message queue, by browsing it with a selector on the batch's id:
     * nothing consumes that queue, so the browse does not race a consumer. When the broker refuses the browse, the
     * count is null and {@code brokerStatistics} says why.
     */
    private void putDeadLettered(Map<String, Object> status, String batch) {
        try (QueueBrowser browser = jms.createBrowser(jms.createQueue(DEAD_MESSAGE_QUEUE),
                OrderPlacedHandler.BATCH + " = '" + batch + "'")) {
            long count = 0;
            for (Enumeration<?> messages = browser.getEnumeration(); messages.hasMoreElements(); messages.nextElement()) {
                count++;
            }
            status.put("deadLettered", count);
        } catch (JMSException | JMSRuntimeException e) {
            status.put("deadLettered", null);
            status.put("brokerStatistics", "cannot browse " + DEAD_MESSAGE_QUEUE + ": " + e);
        }
    }

    /** A count of a batch's status, or the given value where it is unknown (null). */
    private static long count(Map<String, Object> status, String name, long unknown) {
        return status.get(name) instanceof Long count ? count : unknown;
    }
}
