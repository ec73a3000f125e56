package io.github.txinbox.bench.kafka;

import io.github.txinbox.it.kafka.InApplication;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.concurrent.CompletionStage;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.eclipse.microprofile.reactive.messaging.Incoming;

/**
 * The channels, consumed as docs/kafka.md shows: each record handed to its handler through
 * {@link InApplication}, and acknowledged when the handler's transaction has committed.
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

    @Inject
    InApplication inApplication;

    /**
     * Handles a record with the inbox.
     *
     * @param record the record
     * @return completes after the commit
     */
    @Incoming(WITH_INBOX)
    public CompletionStage<Void> withInbox(ConsumerRecord<String, String> record) {
        return inApplication.run(() -> withInbox.handle(record));
    }

    /**
     * Handles a record without the inbox.
     *
     * @param record the record
     * @return completes after the commit
     */
    @Incoming(WITHOUT_INBOX)
    public CompletionStage<Void> withoutInbox(ConsumerRecord<String, String> record) {
        return inApplication.run(() -> withoutInbox.handle(record));
    }

    /**
     * Handles a record with a marker written by hand.
     *
     * @param record the record
     * @return completes after the commit
     */
    @Incoming(MARKER_BY_HAND)
    public CompletionStage<Void> markerByHand(ConsumerRecord<String, String> record) {
        return inApplication.run(() -> markerByHand.handle(record));
    }
}
