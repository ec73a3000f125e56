package io.github.txinbox.it.kafka;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.eclipse.microprofile.reactive.messaging.Incoming;

/**
 * The consumer of the channel {@value #CHANNEL}, shaped as docs/kafka.md shows: hands each record to
 * {@link KafkaOrders}, on the connector's own thread. The connector acknowledges the record (and commits its offset)
 * when the method returns, that is after the handler's transaction has committed; when it throws, it nacks the record,
 * and its failure strategy decides.
 */
@ApplicationScoped
public class KafkaOrdersConsumer {

    /** The channel, configured in the deployment's microprofile-config.properties. */
    public static final String CHANNEL = "kafka-orders";

    @Inject
    KafkaOrders orders;

    /**
     * Handles a record.
     *
     * @param record the record
     */
    @Incoming(CHANNEL)
    public void consume(ConsumerRecord<String, String> record) {
        orders.handle(record);
    }
}
