package io.github.txinbox.sample;

import io.github.txinbox.sample.model.Invoice;
import jakarta.ejb.Stateless;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;
import jakarta.persistence.Query;
import java.math.BigDecimal;
import java.util.LinkedHashMap;
import java.util.Map;

/** Writes invoices and reads the sample's tables, in the caller's transaction (or its own). */
@Stateless
public class Invoicing {

    @PersistenceContext(unitName = "sample")
    EntityManager entityManager;

    /**
     * Creates the invoice of an order.
     *
     * @param orderId the order
     * @param amount  its amount
     */
    public void invoice(String orderId, BigDecimal amount) {
        entityManager.persist(new Invoice(orderId, amount));
    }

    /**
     * Counts a demo batch's rows: its invoices, invoiced orders, orders invoiced more than once, and inbox markers; and
     * the expired markers the launcher plants before deployment (scope {@code expired-demo}) that the scheduled purge
     * has yet to delete.
     *
     * @param batch the batch id, which every order id of the batch carries ({@code order-<batch>-<n>})
     * @return the counts by name
     */
    public Map<String, Long> tableCounts(String batch) {
        String orders = "order-" + batch + "-%";
        Map<String, Long> counts = new LinkedHashMap<>();
        counts.put("invoices", count("SELECT count(*) FROM sample_invoice WHERE order_id LIKE ?1", orders));
        counts.put("invoicedOrders",
                count("SELECT count(DISTINCT order_id) FROM sample_invoice WHERE order_id LIKE ?1", orders));
        counts.put("ordersInvoicedTwice", count("SELECT count(*) FROM (SELECT order_id FROM sample_invoice "
                + "WHERE order_id LIKE ?1 GROUP BY order_id HAVING count(*) > 1) AS twice", orders));
        counts.put("markers",
                count("SELECT count(*) FROM inbox WHERE scope = 'order-placed' AND message_id LIKE ?1", orders));
        counts.put("expiredDemoMarkers", count("SELECT count(*) FROM inbox WHERE scope = 'expired-demo'"));
        return counts;
    }

    /** Runs a count; its parameters are ?1, ?2 and on. */
    private long count(String sql, String... parameters) {
        Query query = entityManager.createNativeQuery(sql);
        for (int i = 0; i < parameters.length; i++) {
            query.setParameter(i + 1, parameters[i]);
        }
        return ((Number) query.getSingleResult()).longValue();
    }
}
