package io.github.txinbox.internal.binding;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.txinbox.Inbox;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.UUID;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.utils.Bytes;
import org.junit.jupiter.api.Test;

class KafkaRecordIdsTest {

    private static ConsumerRecord<Object, String> record(Object key) {
        return new ConsumerRecord<>("orders", 3, 42L, key, "payload");
    }

    @Test
    void readsTheLastHeaderOfTheNameAsUtf8() throws Exception {
        ConsumerRecord<Object, String> record = record("k");
        record.headers().add("message-id", "first".getBytes(StandardCharsets.UTF_8));
        record.headers().add("message-id", "Bestellung-ü-2".getBytes(StandardCharsets.UTF_8));
        assertEquals("Bestellung-ü-2", KafkaRecordIds.read(record, "message-id"));
    }

    @Test
    void aMissingHeaderOrOneWithoutValueIsNoId() throws Exception {
        ConsumerRecord<Object, String> record = record("k");
        record.headers().add("empty", null);
        assertNull(KafkaRecordIds.read(record, "message-id"));
        assertNull(KafkaRecordIds.read(record, "empty"));
    }

    @Test
    void readsTheRecordsKey() throws Exception {
        assertEquals("order-1", KafkaRecordIds.read(record("order-1"), Inbox.KAFKA_RECORD_KEY));
        assertEquals("order-ü", KafkaRecordIds.read(record("order-ü".getBytes(StandardCharsets.UTF_8)),
                Inbox.KAFKA_RECORD_KEY));
        assertEquals("17", KafkaRecordIds.read(record(17L), Inbox.KAFKA_RECORD_KEY));
        assertNull(KafkaRecordIds.read(record(null), Inbox.KAFKA_RECORD_KEY));
    }

    @Test
    void bytesThatAreNotValidUtf8AreRefusedNeverReplaced() {
        ConsumerRecord<Object, String> record = record(new byte[] {'o', (byte) 0xff, '1'});
        record.headers().add("message-id", new byte[] {'o', (byte) 0xc3, '1'});
        KafkaRecordIds.UnreadableIdException header = assertThrows(KafkaRecordIds.UnreadableIdException.class,
                () -> KafkaRecordIds.read(record, "message-id"));
        assertEquals("the header 'message-id' is not valid UTF-8 (3 bytes): an id is read exactly, never with its "
                + "invalid bytes replaced", header.getMessage());
        KafkaRecordIds.UnreadableIdException key = assertThrows(KafkaRecordIds.UnreadableIdException.class,
                () -> KafkaRecordIds.read(record, Inbox.KAFKA_RECORD_KEY));
        assertTrue(key.getMessage().startsWith("the record's key is not valid UTF-8"), key.getMessage());
    }

    @Test
    void byteBufferAndBytesKeysAreReadByTheirBytes() throws Exception {
        ByteBuffer first = ByteBuffer.wrap("order-0001".getBytes(StandardCharsets.UTF_8));
        ByteBuffer second = ByteBuffer.wrap("order-0002".getBytes(StandardCharsets.UTF_8));
        assertEquals("order-0001", KafkaRecordIds.read(record(first), Inbox.KAFKA_RECORD_KEY));
        assertEquals("order-0002", KafkaRecordIds.read(record(second), Inbox.KAFKA_RECORD_KEY));
        assertEquals(0, first.position(), "reading the key left the buffer as it was");
        assertEquals("order-ü", KafkaRecordIds.read(record(Bytes.wrap("order-ü".getBytes(StandardCharsets.UTF_8))),
                Inbox.KAFKA_RECORD_KEY));
        UUID uuid = UUID.randomUUID();
        assertEquals(uuid.toString(), KafkaRecordIds.read(record(uuid), Inbox.KAFKA_RECORD_KEY));
    }

    @Test
    void aKeyWithoutExactTextIsRefused() {
        for (Object key : List.of(new Object(), new int[] {1, 2}, 1.5d)) {
            KafkaRecordIds.UnreadableIdException e = assertThrows(KafkaRecordIds.UnreadableIdException.class,
                    () -> KafkaRecordIds.read(record(key), Inbox.KAFKA_RECORD_KEY));
            assertTrue(e.getMessage().startsWith("the record's key is a " + key.getClass().getName()
                    + ", which has no exact text to be an id"), e.getMessage());
        }
    }

    @Test
    void readsTheRecordsPlace() throws Exception {
        assertEquals("orders/3/42", KafkaRecordIds.read(record(null), Inbox.KAFKA_TOPIC_PARTITION_OFFSET));
    }

    @Test
    void recognisesTheRecordTypeByName() {
        assertTrue(KafkaRecordIds.isRecord(ConsumerRecord.class));
        assertFalse(KafkaRecordIds.isRecord(List.class));
        assertFalse(KafkaRecordIds.isRecord(null));
    }
}
