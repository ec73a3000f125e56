package io.github.txinbox.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.txinbox.Inbox;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;

class KafkaRecordIdsTest {

    private static ConsumerRecord<Object, String> record(Object key) {
        return new ConsumerRecord<>("orders", 3, 42L, key, "payload");
    }

    @Test
    void readsTheLastHeaderOfTheNameAsUtf8() {
        ConsumerRecord<Object, String> record = record("k");
        record.headers().add("message-id", "first".getBytes(StandardCharsets.UTF_8));
        record.headers().add("message-id", "Bestellung-ü-2".getBytes(StandardCharsets.UTF_8));
        assertEquals("Bestellung-ü-2", KafkaRecordIds.read(record, "message-id"));
    }

    @Test
    void aMissingHeaderOrOneWithoutValueIsNoId() {
        ConsumerRecord<Object, String> record = record("k");
        record.headers().add("empty", null);
        assertNull(KafkaRecordIds.read(record, "message-id"));
        assertNull(KafkaRecordIds.read(record, "empty"));
        assertEquals("the record has no header 'message-id', or it has no value",
                KafkaRecordIds.source("message-id"));
    }

    @Test
    void readsTheRecordsKey() {
        assertEquals("order-1", KafkaRecordIds.read(record("order-1"), Inbox.KAFKA_RECORD_KEY));
        assertEquals("order-ü", KafkaRecordIds.read(record("order-ü".getBytes(StandardCharsets.UTF_8)),
                Inbox.KAFKA_RECORD_KEY));
        assertEquals("17", KafkaRecordIds.read(record(17L), Inbox.KAFKA_RECORD_KEY));
        assertNull(KafkaRecordIds.read(record(null), Inbox.KAFKA_RECORD_KEY));
    }

    @Test
    void readsTheRecordsPlace() {
        assertEquals("orders/3/42", KafkaRecordIds.read(record(null), Inbox.KAFKA_TOPIC_PARTITION_OFFSET));
    }

    @Test
    void recognisesTheRecordTypeByName() {
        assertTrue(KafkaRecordIds.isRecord(ConsumerRecord.class));
        assertFalse(KafkaRecordIds.isRecord(List.class));
        assertFalse(KafkaRecordIds.isRecord(null));
    }
}
