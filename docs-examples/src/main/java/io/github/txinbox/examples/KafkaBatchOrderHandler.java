package io.github.txinbox.examples;

// tag::handler[]
import io.github.txinbox.Inbox;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.transaction.Transactional;
import java.util.List;
import org.apache.kafka.clients.consumer.ConsumerRecord;

@ApplicationScoped
public class KafkaBatchOrderHandler {

    @Transactional // one transaction for the batch: its markers and its business writes commit together
    @Inbox(scope = "orders", key = "message-id") // the scope of the one-record handler, which the consumer falls back to
    public void handle(List<ConsumerRecord<String, String>> records) {
        for (ConsumerRecord<String, String> record : records) {
            // the business writes: only records not processed before are here, each id once
        }
    }
}
// end::handler[]
