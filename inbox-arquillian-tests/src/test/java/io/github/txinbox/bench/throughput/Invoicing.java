package io.github.txinbox.bench.throughput;

import io.github.txinbox.it.app.Invoice;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.jms.JMSException;
import jakarta.jms.Message;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;

/** The listeners' whole work: one invoice row per message, in the delivery's transaction. */
@ApplicationScoped
public class Invoicing {

    /** The message property holding the order id. */
    public static final String ORDER_ID = "orderId";

    @PersistenceContext
    EntityManager entityManager;

    public void invoice(String consumer, Message message) {
        try {
            entityManager.persist(new Invoice(consumer, message.getStringProperty(ORDER_ID)));
        } catch (JMSException e) {
            throw new IllegalStateException(e);
        }
    }
}
