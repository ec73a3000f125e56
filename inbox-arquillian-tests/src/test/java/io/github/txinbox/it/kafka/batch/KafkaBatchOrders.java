package io.github.txinbox.it.kafka.batch;

import io.github.txinbox.Inbox;
import io.github.txinbox.it.kafka.KafkaOrders;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;
import jakarta.transaction.Transactional;
import java.util.List;
import org.apache.kafka.clients.consumer.ConsumerRecord;

/**
 * Handles a batch of order records in one transaction, deduplicating by the header {@value KafkaOrders#MESSAGE_ID} in
 * the scope of {@link KafkaOrders}, which handles the same records one by one: the inbox claims the batch in one
 * statement and passes only the records it claimed. Each record is processed as {@link KafkaOrders#process} does.
 */
@ApplicationScoped
public class KafkaBatchOrders {

    @PersistenceContext
    EntityManager entityManager;

    /**
     * Handles the records of a batch that were not processed before.
     *
     * @param records the new records, each id once
     */
    @Transactional
    @Inbox(scope = KafkaOrders.SCOPE, key = KafkaOrders.MESSAGE_ID)
    public void handle(List<ConsumerRecord<String, String>> records) {
        for (ConsumerRecord<String, String> record : records) {
            KafkaOrders.process(entityManager, record);
        }
    }
}
