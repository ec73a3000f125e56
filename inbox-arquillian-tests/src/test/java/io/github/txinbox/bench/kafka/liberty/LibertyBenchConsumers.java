package io.github.txinbox.bench.kafka.liberty;

import io.github.txinbox.bench.kafka.BenchConsumers;
import io.github.txinbox.bench.kafka.BenchHandlers;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.concurrent.CompletionStage;
import java.util.function.Consumer;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.eclipse.microprofile.reactive.messaging.Incoming;
import org.eclipse.microprofile.reactive.messaging.Message;

/**
 * The channels of {@link BenchConsumers} on Open Liberty's {@code liberty-kafka} connector, consumed as docs/kafka.md
 * shows for it: the record taken from the message, handed to its handler, whose transaction commits before the
 * handler returns, and the message acknowledged after that. The benchmark's handlers do not fail, so the dead-letter
 * path of the documented consumer is left out: a failure here would stop the channel, and the round would time out.
 */
@ApplicationScoped
public class LibertyBenchConsumers {

    @Inject
    BenchHandlers.WithInbox withInbox;

    @Inject
    BenchHandlers.WithoutInbox withoutInbox;

    @Inject
    BenchHandlers.MarkerByHand markerByHand;

    /**
     * Handles a record with the inbox.
     *
     * @param message the record's message
     * @return its acknowledgement
     */
    @Incoming(BenchConsumers.WITH_INBOX)
    public CompletionStage<Void> withInbox(Message<String> message) {
        return consume(message, withInbox::handle);
    }

    /**
     * Handles a record without the inbox.
     *
     * @param message the record's message
     * @return its acknowledgement
     */
    @Incoming(BenchConsumers.WITHOUT_INBOX)
    public CompletionStage<Void> withoutInbox(Message<String> message) {
        return consume(message, withoutInbox::handle);
    }

    /**
     * Handles a record with a marker written by hand.
     *
     * @param message the record's message
     * @return its acknowledgement
     */
    @Incoming(BenchConsumers.MARKER_BY_HAND)
    public CompletionStage<Void> markerByHand(Message<String> message) {
        return consume(message, markerByHand::handle);
    }

    @SuppressWarnings("unchecked")
    private static CompletionStage<Void> consume(Message<String> message,
            Consumer<ConsumerRecord<String, String>> handler) {
        handler.accept(message.unwrap(ConsumerRecord.class));
        return message.ack();
    }
}
