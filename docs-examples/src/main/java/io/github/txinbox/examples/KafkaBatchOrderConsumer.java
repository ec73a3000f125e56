package io.github.txinbox.examples;

// tag::consumer[]
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.eclipse.microprofile.reactive.messaging.Channel;
import org.eclipse.microprofile.reactive.messaging.Emitter;
import org.eclipse.microprofile.reactive.messaging.Incoming;

@ApplicationScoped
public class KafkaBatchOrderConsumer {

    @Inject
    KafkaBatchOrderHandler batch;

    @Inject
    KafkaOrderHandler handler; // the one-record handler, same scope

    @Inject
    @Channel("orders-dead-letters")
    Emitter<ProducerRecord<String, String>> deadLetters;

    @Incoming("orders") // with batch=true: one call per poll
    public CompletionStage<Void> consume(ConsumerRecords<String, String> polled) {
        List<ConsumerRecord<String, String>> records = new ArrayList<>(polled.count());
        polled.forEach(records::add);
        try {
            batch.handle(records); // one claim, one transaction; committed when it returns
            return CompletableFuture.completedFuture(null); // the connector acknowledges the batch
        } catch (RuntimeException e) { // rolled back: nothing of the batch committed
            List<CompletableFuture<?>> written = new ArrayList<>();
            for (ConsumerRecord<String, String> record : records) {
                try {
                    handler.handle(record); // a transaction of its own: a duplicate, processed, or failed alone
                } catch (RuntimeException failed) { // this record rolled back alone
                    ProducerRecord<String, String> dead = new ProducerRecord<>("orders-dead-letters", record.key(),
                            record.value());
                    record.headers().forEach(header -> dead.headers().add(header));
                    dead.headers().add("dead-letter-reason", String.valueOf(failed).getBytes(StandardCharsets.UTF_8));
                    written.add(deadLetters.send(dead).toCompletableFuture());
                }
            }
            // acknowledged once the dead letters are written; a write that fails nacks the whole batch
            return CompletableFuture.allOf(written.toArray(CompletableFuture[]::new));
        }
    }
}
// end::consumer[]
