package io.github.txinbox.examples;

// tag::consumer[]
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.context.BeforeDestroyed;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.CompletionStage;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.eclipse.microprofile.reactive.messaging.Channel;
import org.eclipse.microprofile.reactive.messaging.Emitter;
import org.eclipse.microprofile.reactive.messaging.Incoming;
import org.eclipse.microprofile.reactive.messaging.Message;

@ApplicationScoped
public class LibertyKafkaOrderConsumer {

    @Inject
    KafkaOrderHandler handler;

    @Inject
    @Channel("orders-dead-letters")
    Emitter<ProducerRecord<String, String>> deadLetters;

    private volatile boolean stopping;

    void stopping(@Observes @BeforeDestroyed(ApplicationScoped.class) Object application) {
        stopping = true;
    }

    @Incoming("orders")
    public CompletionStage<Void> consume(Message<String> message) {
        @SuppressWarnings("unchecked")
        ConsumerRecord<String, String> record = message.unwrap(ConsumerRecord.class);
        try {
            handler.handle(record); // commits before it returns
        } catch (RuntimeException e) { // rolled back
            if (stopping) {
                throw e; // nacked: the channel stops with the application, and the record comes again
            }
            ProducerRecord<String, String> dead = new ProducerRecord<>("orders-dead-letters", record.key(),
                    record.value());
            record.headers().forEach(header -> dead.headers().add(header));
            dead.headers().add("dead-letter-reason", String.valueOf(e).getBytes(StandardCharsets.UTF_8));
            return deadLetters.send(dead).thenCompose(written -> message.ack()); // acknowledged once written
        }
        return message.ack();
    }
}
// end::consumer[]
