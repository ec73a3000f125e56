package io.github.txinbox.sample.model;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;
import java.math.BigDecimal;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.UUID;

/**
 * An invoice for an order. No unique key on the order: a duplicate delivery would show as a second invoice. Plain
 * column types (text id, {@code OffsetDateTime}) that EclipseLink, Payara's default provider, maps as PostgreSQL
 * expects.
 */
@Entity
@Table(name = "sample_invoice")
public class Invoice {

    @Id
    private String id;

    @Column(name = "order_id", nullable = false)
    private String orderId;

    @Column(nullable = false)
    private BigDecimal amount;

    @Column(name = "created_at", nullable = false)
    private OffsetDateTime createdAt;

    protected Invoice() {
    }

    public Invoice(String orderId, BigDecimal amount) {
        this.id = UUID.randomUUID().toString();
        this.orderId = orderId;
        this.amount = amount;
        this.createdAt = OffsetDateTime.now(ZoneOffset.UTC);
    }

    public String getId() {
        return id;
    }

    public String getOrderId() {
        return orderId;
    }

    public BigDecimal getAmount() {
        return amount;
    }
}
