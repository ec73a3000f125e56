package io.github.txinbox.sample;

import io.github.txinbox.sample.model.Invoice;
import jakarta.ejb.Stateless;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;
import java.math.BigDecimal;

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
     * Counts rows in the sample's tables: invoices, invoiced orders, orders invoiced more than once, markers.
     *
     * @return the counts by name
     */
    public java.util.Map<String, Long> tableCounts() {
        return java.util.Map.of(
                "invoices", count("SELECT count(*) FROM sample_invoice"),
                "invoicedOrders", count("SELECT count(DISTINCT order_id) FROM sample_invoice"),
                "ordersInvoicedTwice", count("SELECT count(*) FROM (SELECT order_id FROM sample_invoice "
                        + "GROUP BY order_id HAVING count(*) > 1) AS twice"),
                "markers", count("SELECT count(*) FROM inbox WHERE scope = 'order-placed'"));
    }

    private long count(String sql) {
        return ((Number) entityManager.createNativeQuery(sql).getSingleResult()).longValue();
    }
}
