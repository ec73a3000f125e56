package io.github.txinbox.it.kafka.liberty;

import io.github.txinbox.it.kafka.KafkaOrders;
import io.github.txinbox.it.kafka.KafkaOrdersConsumer;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.context.BeforeDestroyed;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import java.util.concurrent.CompletionStage;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.eclipse.microprofile.reactive.messaging.Channel;
import org.eclipse.microprofile.reactive.messaging.Emitter;
import org.eclipse.microprofile.reactive.messaging.Incoming;
import org.eclipse.microprofile.reactive.messaging.Message;

/**
 * The consumer of the channel {@value KafkaOrdersConsumer#CHANNEL} on Open Liberty's {@code liberty-kafka} connector,
 * shaped as docs/kafka.md shows for it: takes the record from the message, hands it to {@link KafkaOrders}, and
 * acknowledges the message once the handler has returned, that is after its transaction committed. The connector stops
 * the channel when a message is nacked, so a handler that throws (its transaction rolled back) has its record written
 * to the dead-letter channel {@value #DEAD_LETTERS}, with the failure in the header {@value KafkaOrders#REASON}, and acknowledged
 * only once that write is done (a failed write fails the returned stage: a nack). Once the application is stopping, Open Liberty closes its persistence units while the
 * channel still delivers: a failure then is nacked instead, which stops the channel, and the record comes again.
 */
@ApplicationScoped
public class LibertyKafkaOrdersConsumer {

    /** The outgoing channel of the dead letters; its topic is the channel's {@code topic} setting. */
    public static final String DEAD_LETTERS = "kafka-orders-dead-letters";

    @Inject
    KafkaOrders orders;

    @Inject
    @Channel(DEAD_LETTERS)
    Emitter<ProducerRecord<String, String>> deadLetters;

    private volatile boolean stopping;

    void stopping(@Observes @BeforeDestroyed(ApplicationScoped.class) Object application) {
        stopping = true;
    }

    /**
     * Handles a record.
     *
     * @param message the message of the record
     * @return the acknowledgement
     */
    @Incoming(KafkaOrdersConsumer.CHANNEL)
    public CompletionStage<Void> consume(Message<String> message) {
        @SuppressWarnings("unchecked")
        ConsumerRecord<String, String> record = message.unwrap(ConsumerRecord.class);
        try {
            orders.handle(record);
        } catch (RuntimeException e) {
            if (stopping) {
                throw e;
            }
            return deadLetters.send(KafkaOrders.deadLetter(DEAD_LETTERS, record, e))
                    .thenCompose(written -> message.ack());
        }
        return message.ack();
    }
}
