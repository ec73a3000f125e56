package io.github.txinbox.it.kafka.batch;

import io.github.txinbox.it.app.TestDatabase;
import io.github.txinbox.it.kafka.KafkaOrders;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
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

/**
 * The consumer of the batch channel {@value #CHANNEL} ({@code batch=true}), shaped as docs/kafka.md shows. It hands a
 * poll's records to {@link KafkaBatchOrders} (one transaction, one claim). When that transaction rolls back, nothing
 * of the batch committed, and it hands the records one by one to {@link KafkaOrders} (a transaction each): the records
 * that succeed commit once, and a record that fails alone is written to the dead-letter channel {@value #DEAD_LETTERS}.
 * The batch is acknowledged (its offsets committed) when the returned stage completes: after the commits and the
 * dead-letter writes. It also notes, outside every transaction, how many records came in each record's poll
 * (consumer {@value #POLLS} in {@code handler_call}), so that the tests can tell that a batch held several.
 */
@ApplicationScoped
public class KafkaBatchOrdersConsumer {

    /** The batch channel, configured in the deployment's microprofile-config.properties. */
    public static final String CHANNEL = "kafka-batch";

    /** The outgoing channel of the dead letters. */
    public static final String DEAD_LETTERS = "kafka-batch-dead-letters";

    /** The consumer name under which each record's poll size is noted. */
    public static final String POLLS = "kafka-batch-polls";

    @Inject
    KafkaBatchOrders batch;

    @Inject
    KafkaOrders orders;

    @Inject
    @Channel(DEAD_LETTERS)
    Emitter<ProducerRecord<String, String>> deadLetters;

    /**
     * Handles a poll's records.
     *
     * @param polled the records
     * @return completes once every record has committed or been dead-lettered
     */
    @Incoming(CHANNEL)
    public CompletionStage<Void> consume(ConsumerRecords<String, String> polled) {
        List<ConsumerRecord<String, String>> records = new ArrayList<>(polled.count());
        polled.forEach(records::add);
        for (ConsumerRecord<String, String> record : records) {
            TestDatabase.update("INSERT INTO " + TestDatabase.SCHEMA
                    + ".handler_call (consumer, order_id, delivery) VALUES (?, ?, ?)", POLLS, record.value(),
                    records.size());
        }
        try {
            batch.handle(records); // commits before it returns
            return CompletableFuture.completedFuture(null);
        } catch (RuntimeException batchFailed) { // rolled back: nothing of the batch committed
            List<CompletableFuture<?>> written = new ArrayList<>();
            for (ConsumerRecord<String, String> record : records) {
                try {
                    orders.handle(record); // a transaction of its own
                } catch (RuntimeException failed) { // this record rolled back alone
                    written.add(deadLetters.send(KafkaOrders.deadLetter(DEAD_LETTERS, record, failed))
                            .toCompletableFuture());
                }
            }
            return CompletableFuture.allOf(written.toArray(CompletableFuture[]::new));
        }
    }
}
