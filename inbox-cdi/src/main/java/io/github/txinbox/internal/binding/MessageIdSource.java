package io.github.txinbox.internal.binding;

import io.github.txinbox.Inbox;
import io.github.txinbox.InboxSettings;
import io.github.txinbox.MessageIdResolver;
import io.github.txinbox.MissingMessageIdException;
import jakarta.enterprise.inject.Any;
import jakarta.enterprise.inject.Instance;
import jakarta.enterprise.inject.spi.BeanContainer;
import jakarta.interceptor.InvocationContext;

/**
 * Where the message id of an {@link Inbox @Inbox} method comes from, decided once per method at deployment
 * ({@link InboxBinding}): each kind reads the id of a call, and words what is missing when there is none. The JMS and
 * Kafka kinds leave the reading to {@link JmsMessageIds} and {@link KafkaRecordIds}, so that neither API is loaded
 * where it is not used.
 */
sealed interface MessageIdSource permits MessageIdSource.JmsMessageId, MessageIdSource.KafkaRecordId,
        MessageIdSource.ResolverId {

    /** What becomes of a JMS message (or a resolver's) whose transaction rolls back. */
    String BROKER_REDELIVERS = "so the broker redelivers the message and, after its attempts, moves it to its "
            + "dead-letter queue";

    /** What becomes of a batch of Kafka records whose transaction rolls back. */
    String BATCH_ROLLED_BACK = "nothing of the batch commits, and the consumer hands its records over one by one (or "
            + "its connector sends the batch where a failed one goes), as docs/kafka.md shows";

    /** What becomes of a Kafka record whose transaction rolls back. */
    String CONNECTOR_DECIDES = "and the record goes where the consumer and its connector send a failed one: a "
            + "dead-letter topic, as docs/kafka.md shows";

    /**
     * Reads the message id of a call.
     *
     * @param invocation the call
     * @param settings   the application's settings: a JMS message whose {@code @Inbox} names no key reads the
     *                   property that {@value InboxSettings#KEY} names
     * @param beans      where a resolver is found, at the first call of its method
     * @return the id, never blank
     * @throws MissingMessageIdException when the message has no id, naming the method and what is missing
     * @throws Exception                 what reading the id threw: a {@code JMSException}, a resolver's exception
     */
    String read(InvocationContext invocation, InboxSettings settings, BeanContainer beans) throws Exception;

    /** Whether an id is missing: null or blank. */
    private static boolean missing(String id) {
        return id == null || id.isBlank();
    }

    /** The exception for a call whose message has no id, naming the method and what is missing. */
    private static MissingMessageIdException missing(String method, String what, String afterRollback) {
        return new MissingMessageIdException("@Inbox " + method + " cannot process a message without an id: " + what
                + ". The transaction is rolled back, " + afterRollback);
    }

    /**
     * The id of a JMS message parameter.
     *
     * @param method    the bean class and method, as errors name them
     * @param parameter the index of the message parameter
     * @param property  the string property holding the id; empty for the {@code JMSMessageID}; {@code null} for the
     *                  one {@value InboxSettings#KEY} names, which is known only once the application runs
     */
    record JmsMessageId(String method, int parameter, String property) implements MessageIdSource {

        /**
         * The source for the key an {@code @Inbox} names.
         *
         * @param method    the bean class and method
         * @param parameter the index of the message parameter
         * @param key       {@link Inbox#key()}: empty for the configured default, {@link Inbox#JMS_MESSAGE_ID} for the
         *                  header, else a property
         * @return the source
         */
        static JmsMessageId of(String method, int parameter, String key) {
            return new JmsMessageId(method, parameter,
                    key.isEmpty() ? null : Inbox.JMS_MESSAGE_ID.equals(key) ? "" : key);
        }

        @Override
        public String read(InvocationContext invocation, InboxSettings settings, BeanContainer beans) throws Exception {
            Object message = invocation.getParameters()[parameter];
            if (message == null) {
                throw missing(method, "the message parameter is null", BROKER_REDELIVERS);
            }
            // InboxSettings keeps the JMSMessageID as an empty key, as this record does.
            String key = property != null ? property : settings.defaultKey();
            String id = JmsMessageIds.read(message, key);
            if (missing(id)) {
                throw missing(method, key.isEmpty() ? "the message has no JMSMessageID"
                        : "the JMS property '" + key + "' is missing or blank", BROKER_REDELIVERS);
            }
            return id;
        }
    }

    /**
     * The id of a Kafka {@code ConsumerRecord} parameter.
     *
     * @param method    the bean class and method, as errors name them
     * @param parameter the index of the record parameter
     * @param key       a header's name, {@link Inbox#KAFKA_RECORD_KEY} or {@link Inbox#KAFKA_TOPIC_PARTITION_OFFSET}
     */
    record KafkaRecordId(String method, int parameter, String key) implements MessageIdSource {

        @Override
        public String read(InvocationContext invocation, InboxSettings settings, BeanContainer beans) {
            Object record = invocation.getParameters()[parameter];
            if (record == null) {
                throw missing(method, "the message parameter is null", CONNECTOR_DECIDES);
            }
            try {
                return id(record);
            } catch (KafkaRecordIds.UnreadableIdException e) {
                throw missing(method, e.getMessage(), CONNECTOR_DECIDES);
            }
        }

        /**
         * Reads the id of the record at a position of a batch, naming the record when it has none.
         *
         * @param record   an element of the batch: a {@code ConsumerRecord}, or null
         * @param position its index in the batch
         * @param size     the batch's size
         * @return the id, never blank
         * @throws MissingMessageIdException when the record is null or has no id, naming its place in the batch and
         *                                   in its topic
         */
        String readBatchRecord(Object record, int position, int size) {
            if (record == null) {
                throw missing(method, "record " + (position + 1) + " of the batch of " + size + " is null",
                        BATCH_ROLLED_BACK);
            }
            try {
                return id(record);
            } catch (KafkaRecordIds.UnreadableIdException e) {
                // The record's place is named only here: most records of a batch have their id.
                throw missing(method, "record " + (position + 1) + " of the batch of " + size + " ("
                        + KafkaRecordIds.place(record) + "): " + e.getMessage(), BATCH_ROLLED_BACK);
            }
        }

        /**
         * The exception for a batch parameter that is null.
         *
         * @return the exception, naming the method
         */
        MissingMessageIdException nullBatch() {
            return missing(method, "the batch parameter is null", BATCH_ROLLED_BACK);
        }

        /** The record's id; what is missing, when it has none, as the exception's message. */
        private String id(Object record) throws KafkaRecordIds.UnreadableIdException {
            String id = KafkaRecordIds.read(record, key);
            if (missing(id)) {
                throw new KafkaRecordIds.UnreadableIdException(absent());
            }
            return id;
        }

        /** Where the id was looked for: the key or the header (a record always has a topic, partition and offset). */
        String absent() {
            return Inbox.KAFKA_RECORD_KEY.equals(key) ? "the record has no key"
                    : "the record has no header '" + key + "', or it has no value";
        }
    }

    /**
     * The id a {@link MessageIdResolver} bean computes from the call. The bean is resolved once, at the method's first
     * call (a binding is made before beans can be looked up), from an {@link Instance} of the application's own rather
     * than of the interceptor instance that asks first, whose dependent objects end with it. A normal-scoped resolver
     * is then called through its client proxy; a {@code @Dependent} one is created for each call and destroyed after
     * it, as before: one instance kept for every call would serve concurrent calls, and be destroyed only with the
     * application.
     */
    final class ResolverId implements MessageIdSource {

        /** The resolver as resolved at the first call; {@code proxy} only for a normal-scoped one. */
        private record Resolved(Instance<? extends MessageIdResolver> instance, MessageIdResolver proxy) {
        }

        private final String method;
        private final Class<? extends MessageIdResolver> type;
        private volatile Resolved resolved;

        /**
         * Creates the source.
         *
         * @param method the bean class and method, as errors name them
         * @param type   the resolver's bean class
         */
        ResolverId(String method, Class<? extends MessageIdResolver> type) {
            this.method = method;
            this.type = type;
        }

        /**
         * Returns the resolver's bean class.
         *
         * @return the class {@link Inbox#resolver()} names
         */
        Class<? extends MessageIdResolver> type() {
            return type;
        }

        @Override
        public String read(InvocationContext invocation, InboxSettings settings, BeanContainer beans) {
            Resolved resolver = resolved;
            if (resolver == null) {
                // Two first calls at once may both resolve it; either result will do.
                Instance<? extends MessageIdResolver> instance = beans.createInstance().select(type,
                        Any.Literal.INSTANCE);
                resolver = new Resolved(instance, beans.isNormalScope(instance.getHandle().getBean().getScope())
                        ? instance.get() : null);
                resolved = resolver;
            }
            String id;
            if (resolver.proxy() != null) {
                id = resolver.proxy().messageId(invocation);
            } else {
                try (Instance.Handle<? extends MessageIdResolver> dependent = resolver.instance().getHandle()) {
                    id = dependent.get().messageId(invocation);
                }
            }
            if (missing(id)) {
                throw missing(method, "the resolver " + type.getName() + " returned none", BROKER_REDELIVERS);
            }
            return id;
        }

        @Override
        public String toString() {
            return "ResolverId[method=" + method + ", type=" + type.getName() + "]";
        }
    }
}
