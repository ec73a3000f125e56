package io.github.txinbox.bench.kafka;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.eclipse.microprofile.reactive.messaging.Incoming;

/**
 * The channels, consumed as docs/kafka.md shows: each record handed to its handler, whose transaction commits before
 * the method returns; the connector acknowledges the record after that.
 */
@ApplicationScoped
public class BenchConsumers {

    /** The channel read by the handler with the inbox. */
    public static final String WITH_INBOX = "with-inbox";

    /** The channel read by the handler without it. */
    public static final String WITHOUT_INBOX = "without-inbox";

    /** The channel read by the handler that writes a marker by hand. */
    public static final String MARKER_BY_HAND = "marker-by-hand";

    @Inject
    BenchHandlers.WithInbox withInbox;

    @Inject
    BenchHandlers.WithoutInbox withoutInbox;

    @Inject
    BenchHandlers.MarkerByHand markerByHand;

    /**
     * Handles a record with the inbox.
     *
     * @param record the record
     */
    @Incoming(WITH_INBOX)
    public void withInbox(ConsumerRecord<String, String> record) {
        withInbox.handle(record);
    }

    /**
     * Handles a record without the inbox.
     *
     * @param record the record
     */
    @Incoming(WITHOUT_INBOX)
    public void withoutInbox(ConsumerRecord<String, String> record) {
        withoutInbox.handle(record);
    }

    /**
     * Handles a record with a marker written by hand.
     *
     * @param record the record
     */
    @Incoming(MARKER_BY_HAND)
    public void markerByHand(ConsumerRecord<String, String> record) {
        markerByHand.handle(record);
    }
}
