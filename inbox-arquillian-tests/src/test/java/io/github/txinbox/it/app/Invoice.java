package io.github.txinbox.it.app;

import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;
import java.util.UUID;

/** The business effect of handling an order: one invoice per processing, so that a duplicate shows as a second row. */
@Entity
@Table(name = "invoice")
public class Invoice {

    /** A random UUID as text: EclipseLink 4 binds {@code java.util.UUID} as bytea (see docs/compatibility.md). */
    @Id
    private String id;

    private String consumer;

    private String orderId;

    protected Invoice() {
    }

    public Invoice(String consumer, String orderId) {
        this.id = UUID.randomUUID().toString();
        this.consumer = consumer;
        this.orderId = orderId;
    }

    public String getId() {
        return id;
    }

    public String getConsumer() {
        return consumer;
    }

    public String getOrderId() {
        return orderId;
    }
}
