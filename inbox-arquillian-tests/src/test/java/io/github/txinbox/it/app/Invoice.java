package io.github.txinbox.it.app;

import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;
import java.util.UUID;

/** The business effect of handling an order: one invoice per processing, so that a duplicate shows as a second row. */
@Entity
@Table(name = "invoice")
public class Invoice {

    @Id
    private UUID id;

    private String consumer;

    private String orderId;

    protected Invoice() {
    }

    public Invoice(String consumer, String orderId) {
        this.id = UUID.randomUUID();
        this.consumer = consumer;
        this.orderId = orderId;
    }

    public UUID getId() {
        return id;
    }

    public String getConsumer() {
        return consumer;
    }

    public String getOrderId() {
        return orderId;
    }
}
