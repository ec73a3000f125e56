package io.github.txinbox.examples;

// tag::consumer[]
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.eclipse.microprofile.reactive.messaging.Incoming;

@ApplicationScoped
public class KafkaOrderConsumer {

    @Inject
    KafkaOrderHandler handler;

    @Incoming("orders")
    public void consume(ConsumerRecord<String, String> record) {
        handler.handle(record); // commits before consume returns; the connector acknowledges after
    }
}
// end::consumer[]
