package io.github.txinbox.internal.binding;

import io.github.txinbox.Inbox;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.Set;
import java.util.UUID;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.utils.Bytes;

/**
 * Reads message ids from Kafka records ({@code ConsumerRecord}). Kept apart, like {@link JmsMessageIds}, so that the
 * Kafka client is loaded only when a record is handled: the rest of the library runs where there is no Kafka client.
 *
 * <p>Ids are read exactly: bytes are decoded as UTF-8 and refused when they are not valid UTF-8 (never replaced, which
 * would make ids that differ only there one id), and a key is read only where its type has a text form that is its
 * value.
 */
final class KafkaRecordIds {

    private static final String RECORD_TYPE = "org.apache.kafka.clients.consumer.ConsumerRecord";

    /**
     * The key types read as {@link Inbox#KAFKA_RECORD_KEY}, by name (so that a deployment check needs no Kafka
     * client): bytes decoded as UTF-8, or a value whose {@code toString()} is its value. What Kafka's standard
     * deserializers produce, but {@code Double} and {@code Float}, whose text is not an exact id.
     */
    static final Set<String> KEY_TYPES = Set.of(String.class.getName(), byte[].class.getName(),
            ByteBuffer.class.getName(), "org.apache.kafka.common.utils.Bytes", UUID.class.getName(),
            Long.class.getName(), Integer.class.getName(), Short.class.getName());

    /** Thrown when a record has its id where the key says, but not as exact text. */
    static final class UnreadableIdException extends Exception {

        private static final long serialVersionUID = 1L;

        UnreadableIdException(String message) {
            super(message);
        }
    }

    private KafkaRecordIds() {
    }

    /**
     * Returns the record's id under the key: {@link Inbox#KAFKA_RECORD_KEY}, {@link Inbox#KAFKA_TOPIC_PARTITION_OFFSET},
     * or else the value of the last header of that name, read as UTF-8.
     *
     * @return the id, or {@code null} when the record has no such header, no key, or a header or key without a value
     * @throws UnreadableIdException when the header or key is not valid UTF-8, or the key's type has no exact text
     */
    static String read(Object record, String key) throws UnreadableIdException {
        ConsumerRecord<?, ?> kafka = (ConsumerRecord<?, ?>) record;
        if (Inbox.KAFKA_TOPIC_PARTITION_OFFSET.equals(key)) {
            return place(kafka);
        }
        if (Inbox.KAFKA_RECORD_KEY.equals(key)) {
            return recordKey(kafka.key());
        }
        Header header = kafka.headers().lastHeader(key);
        return header == null || header.value() == null ? null
                : utf8(ByteBuffer.wrap(header.value()), key);
    }

    private static String recordKey(Object recordKey) throws UnreadableIdException {
        if (recordKey == null) {
            return null;
        }
        if (recordKey instanceof String text) {
            return text;
        }
        if (recordKey instanceof byte[] bytes) {
            return utf8(ByteBuffer.wrap(bytes), null);
        }
        if (recordKey instanceof ByteBuffer buffer) {
            return utf8(buffer.duplicate(), null);
        }
        if (recordKey instanceof Bytes bytes) {
            return utf8(ByteBuffer.wrap(bytes.get()), null);
        }
        if (KEY_TYPES.contains(recordKey.getClass().getName())) {
            return recordKey.toString();
        }
        throw new UnreadableIdException("the record's key is a " + recordKey.getClass().getName()
                + ", which has no exact text to be an id; key the record by a String, byte[], ByteBuffer, Bytes, "
                + "UUID, Long, Integer or Short, or name a header that holds the id");
    }

    /** Decodes an id; {@code header} names the header it was read from, {@code null} for the record's key. */
    private static String utf8(ByteBuffer bytes, String header) throws UnreadableIdException {
        int length = bytes.remaining();
        try {
            return StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT).decode(bytes).toString();
        } catch (CharacterCodingException e) {
            String what = header == null ? "the record's key" : "the header '" + header + "'";
            throw new UnreadableIdException(what + " is not valid UTF-8 (" + length + " bytes): an id is read "
                    + "exactly, never with its invalid bytes replaced");
        }
    }

    /** The record's place in its topic, {@code <topic>/<partition>/<offset>}, as errors name a record. */
    static String place(Object record) {
        ConsumerRecord<?, ?> kafka = (ConsumerRecord<?, ?>) record;
        return kafka.topic() + '/' + kafka.partition() + '/' + kafka.offset();
    }

    /** Whether the type is {@code ConsumerRecord}, found by name without loading the Kafka client. */
    static boolean isRecord(Class<?> type) {
        return type != null && type.getName().equals(RECORD_TYPE);
    }
}
