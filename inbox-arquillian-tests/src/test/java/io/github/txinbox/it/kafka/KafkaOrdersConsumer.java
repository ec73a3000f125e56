package io.github.txinbox.it.kafka;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.concurrent.CompletionStage;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.eclipse.microprofile.reactive.messaging.Incoming;

/**
 * The consumer of the channel {@value #CHANNEL}: hands each record to {@link KafkaOrders} through
 * {@link InApplication}. The connector acknowledges the record (and commits its offset) when the returned stage
 * completes, that is after the handler's transaction has committed; when the stage fails, it nacks the record, and
 * its failure strategy decides.
 */
@ApplicationScoped
public class KafkaOrdersConsumer {

    /** The channel, configured in the deployment's microprofile-config.properties. */
    public static final String CHANNEL = "kafka-orders";

    @Inject
    KafkaOrders orders;

    @Inject
    InApplication inApplication;

    /**
     * Handles a record.
     *
     * @param record the record
     * @return completes when the handler's transaction has committed, or fails with the handler's failure
     */
    @Incoming(CHANNEL)
    public CompletionStage<Void> consume(ConsumerRecord<String, String> record) {
        return inApplication.run(() -> orders.handle(record));
    }
}
