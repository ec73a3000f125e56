package io.github.txinbox.examples;

// tag::handler[]
import io.github.txinbox.Inbox;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.transaction.Transactional;
import org.apache.kafka.clients.consumer.ConsumerRecord;

@ApplicationScoped
public class KafkaOrderHandler {

    @Transactional // a transaction of its own: the marker and the business writes commit together
    @Inbox(scope = "orders", key = "message-id") // the id is in the record's header "message-id"
    public void handle(ConsumerRecord<String, String> record) {
        // the business writes, once per message id
    }
}
// end::handler[]
