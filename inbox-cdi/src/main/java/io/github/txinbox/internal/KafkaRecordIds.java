package io.github.txinbox.internal;

import io.github.txinbox.Inbox;
import java.nio.charset.StandardCharsets;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.header.Header;

/**
 * Reads message ids from Kafka records ({@code ConsumerRecord}). Kept apart, like {@link JmsMessageIds}, so that the
 * Kafka client is loaded only when a record is handled: the rest of the library runs where there is no Kafka client.
 */
final class KafkaRecordIds {

    private static final String RECORD_TYPE = "org.apache.kafka.clients.consumer.ConsumerRecord";

    private KafkaRecordIds() {
    }

    /**
     * Returns the record's id under the key: {@link Inbox#KAFKA_RECORD_KEY}, {@link Inbox#KAFKA_TOPIC_PARTITION_OFFSET},
     * or else the value of the last header of that name, read as UTF-8.
     *
     * @return the id, or {@code null} when the record has no such header, no key, or a header or key without a value
     */
    static String read(Object record, String key) {
        ConsumerRecord<?, ?> kafka = (ConsumerRecord<?, ?>) record;
        if (Inbox.KAFKA_TOPIC_PARTITION_OFFSET.equals(key)) {
            return kafka.topic() + '/' + kafka.partition() + '/' + kafka.offset();
        }
        if (Inbox.KAFKA_RECORD_KEY.equals(key)) {
            Object recordKey = kafka.key();
            return recordKey instanceof byte[] bytes ? new String(bytes, StandardCharsets.UTF_8)
                    : recordKey == null ? null : recordKey.toString();
        }
        Header header = kafka.headers().lastHeader(key);
        return header == null || header.value() == null ? null : new String(header.value(), StandardCharsets.UTF_8);
    }

    /**
     * Says where the id was looked for, for the error when there is none: the key or the header (a record always has
     * a topic, a partition and an offset).
     */
    static String source(String key) {
        return Inbox.KAFKA_RECORD_KEY.equals(key) ? "the record has no key"
                : "the record has no header '" + key + "', or it has no value";
    }

    /** Whether the type is {@code ConsumerRecord}, found by name without loading the Kafka client. */
    static boolean isRecord(Class<?> type) {
        return type != null && type.getName().equals(RECORD_TYPE);
    }
}
