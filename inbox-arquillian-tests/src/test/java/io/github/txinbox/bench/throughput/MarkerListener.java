package io.github.txinbox.bench.throughput;

import io.github.txinbox.InboxSettings;
import jakarta.ejb.ActivationConfigProperty;
import jakarta.ejb.MessageDriven;
import jakarta.inject.Inject;
import jakarta.jms.JMSException;
import jakarta.jms.Message;
import jakarta.jms.MessageListener;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;

/**
 * The floor of what a marker can cost: without {@code @Inbox}, the marker's bare
 * {@code INSERT ... ON CONFLICT DO NOTHING} into the inbox table written by hand through the same
 * {@code EntityManager}, then the invoice when the marker is new (no bound on a held marker, no interceptor, no
 * checks).
 */
@MessageDriven(activationConfig = {
        @ActivationConfigProperty(propertyName = "resourceAdapter", propertyValue = "test-artemis-rar"),
        @ActivationConfigProperty(propertyName = "destinationType", propertyValue = "jakarta.jms.Queue"),
        @ActivationConfigProperty(propertyName = "destination", propertyValue = MarkerListener.QUEUE),
        @ActivationConfigProperty(propertyName = "useJNDI", propertyValue = "false"),
        @ActivationConfigProperty(propertyName = "maxSession", propertyValue = "4")})
public class MarkerListener implements MessageListener {

    /** The queue it consumes, and its markers' scope. */
    public static final String QUEUE = "bench-marker-by-hand";

    @PersistenceContext
    EntityManager entityManager;

    @Inject
    InboxSettings settings;

    @Inject
    Invoicing invoicing;

    @Override
    public void onMessage(Message message) {
        try {
            int inserted = entityManager.createNativeQuery("INSERT INTO " + settings.table().quotedName()
                    + " (scope, message_id, processed_at) VALUES (?1, ?2, now()) "
                    + "ON CONFLICT (scope, message_id) DO NOTHING")
                    .setParameter(1, QUEUE).setParameter(2, message.getJMSMessageID()).executeUpdate();
            if (inserted == 1) {
                invoicing.invoice(QUEUE, message);
            }
        } catch (JMSException e) {
            throw new IllegalStateException(e);
        }
    }
}
