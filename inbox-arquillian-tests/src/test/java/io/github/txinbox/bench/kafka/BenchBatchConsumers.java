package io.github.txinbox.bench.kafka;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.ArrayList;
import java.util.List;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.eclipse.microprofile.reactive.messaging.Incoming;

/**
 * The batch channels on SmallRye's connector ({@code batch=true}): each poll handed to its handler, whose transaction
 * commits before the method returns; the connector acknowledges the batch after that. No record of the benchmark
 * fails, so the fallback of docs/kafka.md (one by one) is left out.
 */
@ApplicationScoped
public class BenchBatchConsumers {

    /** The batch channel read by the handler with the inbox. */
    public static final String WITH_INBOX = "batch-with-inbox";

    /** The batch channel read by the handler without it. */
    public static final String WITHOUT_INBOX = "batch-without-inbox";

    @Inject
    BenchHandlers.BatchWithInbox withInbox;

    @Inject
    BenchHandlers.BatchWithoutInbox withoutInbox;

    /**
     * Handles a poll with the inbox.
     *
     * @param polled the records
     */
    @Incoming(WITH_INBOX)
    public void withInbox(ConsumerRecords<String, String> polled) {
        withInbox.handle(list(polled));
    }

    /**
     * Handles a poll without the inbox.
     *
     * @param polled the records
     */
    @Incoming(WITHOUT_INBOX)
    public void withoutInbox(ConsumerRecords<String, String> polled) {
        withoutInbox.handle(list(polled));
    }

    private static List<ConsumerRecord<String, String>> list(ConsumerRecords<String, String> polled) {
        List<ConsumerRecord<String, String>> records = new ArrayList<>(polled.count());
        polled.forEach(records::add);
        return records;
    }
}
