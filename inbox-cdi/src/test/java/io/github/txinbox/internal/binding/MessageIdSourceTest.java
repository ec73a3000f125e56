package io.github.txinbox.internal.binding;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.github.txinbox.Inbox;
import io.github.txinbox.InboxSettings;
import io.github.txinbox.MessageIdResolver;
import io.github.txinbox.MissingMessageIdException;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.context.Dependent;
import jakarta.enterprise.inject.Instance;
import jakarta.enterprise.inject.spi.Bean;
import jakarta.enterprise.inject.spi.BeanContainer;
import jakarta.interceptor.InvocationContext;
import jakarta.jms.Message;
import java.lang.reflect.InvocationHandler;
import java.lang.reflect.Proxy;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

/** Each source reads the id of a call, and says what is missing, naming the method, when there is none. */
class MessageIdSourceTest {

    private static final String METHOD = "com.example.Orders.onMessage";
    private static final String BROKER = "The transaction is rolled back, so the broker redelivers the message and, "
            + "after its attempts, moves it to its dead-letter queue";
    private static final String CONNECTOR = "The transaction is rolled back, and the record goes where the consumer "
            + "and its connector send a failed one: a dead-letter topic, as docs/kafka.md shows";
    private static final InboxSettings DEFAULTS = InboxSettings.DEFAULTS;
    private static final InboxSettings ORDER_ID_KEY = new InboxSettings(DEFAULTS.table(), DEFAULTS.tableCheck(),
            "orderId", DEFAULTS.maxScopeBytes(), DEFAULTS.maxMessageIdBytes(), DEFAULTS.preparedTransactionAge(),
            DEFAULTS.claimMaxWait());

    private static String missing(Executable read) {
        return assertThrows(MissingMessageIdException.class, read).getMessage();
    }

    private static String without(String what, String after) {
        return "@Inbox " + METHOD + " cannot process a message without an id: " + what + ". " + after;
    }

    // JMS

    @Test
    void aJmsMessageWithoutItsJmsMessageIdSaysSo() {
        MessageIdSource header = MessageIdSource.JmsMessageId.of(METHOD, 0, Inbox.JMS_MESSAGE_ID);
        assertEquals(without("the message has no JMSMessageID", BROKER),
                missing(() -> header.read(call(jms(null, Map.of())), ORDER_ID_KEY, null)));
    }

    @Test
    void aJmsMessageWithoutItsPropertySaysWhichOneNamedOrConfigured() throws Exception {
        MessageIdSource named = MessageIdSource.JmsMessageId.of(METHOD, 1, "tenantId");
        assertEquals(without("the JMS property 'tenantId' is missing or blank", BROKER),
                missing(() -> named.read(call("note", jms("ID:1", Map.of("tenantId", " "))), DEFAULTS, null)));

        MessageIdSource configured = MessageIdSource.JmsMessageId.of(METHOD, 0, "");
        assertEquals(without("the JMS property 'orderId' is missing or blank", BROKER),
                missing(() -> configured.read(call(jms("ID:1", Map.of())), ORDER_ID_KEY, null)));
        assertEquals("order-7", configured.read(call(jms("ID:1", Map.of("orderId", "order-7"))), ORDER_ID_KEY, null));
        assertEquals("ID:1", configured.read(call(jms("ID:1", Map.of("orderId", "order-7"))), DEFAULTS, null),
                "without txinbox.key, the JMSMessageID");
    }

    @Test
    void aNullJmsMessageSaysSo() {
        MessageIdSource source = MessageIdSource.JmsMessageId.of(METHOD, 0, "");
        assertEquals(without("the message parameter is null", BROKER),
                missing(() -> source.read(call((Object) null), DEFAULTS, null)));
    }

    // Kafka

    private static ConsumerRecord<Object, String> record(Object key) {
        return new ConsumerRecord<>("orders", 3, 42L, key, "payload");
    }

    @Test
    void aKafkaRecordWithoutItsHeaderOrKeySaysSoAndLeavesItToTheConnector() throws Exception {
        MessageIdSource header = new MessageIdSource.KafkaRecordId(METHOD, 0, "message-id");
        assertEquals(without("the record has no header 'message-id', or it has no value", CONNECTOR),
                missing(() -> header.read(call(record("k")), ORDER_ID_KEY, null)));
        ConsumerRecord<Object, String> withHeader = record("k");
        withHeader.headers().add("message-id", "order-1".getBytes(StandardCharsets.UTF_8));
        assertEquals("order-1", header.read(call(withHeader), ORDER_ID_KEY, null), "txinbox.key is for JMS only");

        MessageIdSource key = new MessageIdSource.KafkaRecordId(METHOD, 0, Inbox.KAFKA_RECORD_KEY);
        assertEquals(without("the record has no key", CONNECTOR), missing(() -> key.read(call(record(null)), DEFAULTS,
                null)));
        assertEquals(without("the message parameter is null", CONNECTOR),
                missing(() -> key.read(call((Object) null), DEFAULTS, null)));
    }

    @Test
    void aKafkaKeyThatIsNotExactTextIsMissingSayingWhy() {
        MessageIdSource key = new MessageIdSource.KafkaRecordId(METHOD, 0, Inbox.KAFKA_RECORD_KEY);
        assertEquals(without("the record's key is not valid UTF-8 (3 bytes): an id is read exactly, never with its "
                + "invalid bytes replaced", CONNECTOR),
                missing(() -> key.read(call(record(new byte[] {'o', (byte) 0xff, '1'})), DEFAULTS, null)));
    }

    @Test
    void aRecordOfABatchWithoutItsIdIsNamedByItsPlace() {
        MessageIdSource.KafkaRecordId header = new MessageIdSource.KafkaRecordId(METHOD, 0, "message-id");
        String batch = "The transaction is rolled back, nothing of the batch commits, and the consumer hands its "
                + "records over one by one (or its connector sends the batch where a failed one goes), as "
                + "docs/kafka.md shows";
        assertEquals(without("record 2 of the batch of 3 (orders/3/42): the record has no header 'message-id', or it "
                + "has no value", batch), missing(() -> header.readBatchRecord(record("k"), 1, 3)));
        assertEquals(without("record 3 of the batch of 3 is null", batch),
                missing(() -> header.readBatchRecord(null, 2, 3)));
        assertEquals(without("the batch parameter is null", batch), header.nullBatch().getMessage());
        ConsumerRecord<Object, String> withHeader = record("k");
        withHeader.headers().add("message-id", "order-1".getBytes(StandardCharsets.UTF_8));
        assertEquals("order-1", header.readBatchRecord(withHeader, 0, 3));
    }

    // A resolver

    /** A resolver that returns what it is told, counting the instances made of it and those destroyed. */
    static final class Resolvers {
        final AtomicInteger lookedUp = new AtomicInteger();
        final AtomicInteger created = new AtomicInteger();
        final AtomicInteger destroyed = new AtomicInteger();
        volatile String id;

        /** A bean manager that finds the resolver as a bean of that scope. */
        BeanContainer beans(Class<?> scope) {
            MessageIdResolver resolver = invocation -> id;
            Bean<?> bean = proxy(Bean.class,
                    (self, method, args) -> method.getName().equals("getScope") ? scope : null);
            Instance.Handle<?> handle = proxy(Instance.Handle.class, (self, method, args) -> switch (method.getName()) {
                case "getBean" -> bean;
                case "get" -> {
                    created.incrementAndGet();
                    yield resolver;
                }
                case "close" -> {
                    destroyed.incrementAndGet();
                    yield null;
                }
                default -> throw new UnsupportedOperationException(method.getName());
            });
            Instance<?> instance = proxy(Instance.class, (self, method, args) -> switch (method.getName()) {
                case "select" -> self;
                case "getHandle" -> handle;
                case "get" -> resolver;
                default -> throw new UnsupportedOperationException(method.getName());
            });
            return proxy(BeanContainer.class, (self, method, args) -> switch (method.getName()) {
                case "createInstance" -> {
                    lookedUp.incrementAndGet();
                    yield instance;
                }
                case "isNormalScope" -> args[0] == ApplicationScoped.class;
                default -> throw new UnsupportedOperationException(method.getName());
            });
        }
    }

    static class OrderIds implements MessageIdResolver {
        @Override
        public String messageId(InvocationContext invocation) {
            return null;
        }
    }

    @Test
    void aResolverThatReturnsNoIdIsNamed() {
        Resolvers resolvers = new Resolvers();
        MessageIdSource source = new MessageIdSource.ResolverId(METHOD, OrderIds.class);
        resolvers.id = " ";
        assertEquals(without("the resolver " + OrderIds.class.getName() + " returned none", BROKER),
                missing(() -> source.read(call(), DEFAULTS, resolvers.beans(Dependent.class))));
    }

    @Test
    void aDependentResolverIsLookedUpOnceAndMadeAndDestroyedForEachCall() throws Exception {
        Resolvers resolvers = new Resolvers();
        BeanContainer beans = resolvers.beans(Dependent.class);
        MessageIdSource source = new MessageIdSource.ResolverId(METHOD, OrderIds.class);
        for (int i = 1; i <= 3; i++) {
            resolvers.id = "order-" + i;
            assertEquals("order-" + i, source.read(call(), DEFAULTS, beans));
        }
        assertEquals(1, resolvers.lookedUp.get(), "looked up once");
        assertEquals(3, resolvers.created.get());
        assertEquals(3, resolvers.destroyed.get(), "each call's instance destroyed after it");
    }

    @Test
    void aNormalScopedResolverIsLookedUpOnceAndCalledThroughItsProxy() throws Exception {
        Resolvers resolvers = new Resolvers();
        BeanContainer beans = resolvers.beans(ApplicationScoped.class);
        MessageIdSource source = new MessageIdSource.ResolverId(METHOD, OrderIds.class);
        resolvers.id = "order-1";
        assertEquals("order-1", source.read(call(), DEFAULTS, beans));
        assertEquals("order-1", source.read(call(), DEFAULTS, beans));
        assertEquals(1, resolvers.lookedUp.get(), "looked up once");
        assertEquals(0, resolvers.created.get(), "no instance made per call");
    }

    // Fakes

    private static InvocationContext call(Object... parameters) {
        return proxy(InvocationContext.class, (self, method, args) -> {
            if (method.getName().equals("getParameters")) {
                return parameters;
            }
            throw new UnsupportedOperationException(method.getName());
        });
    }

    private static Message jms(String messageId, Map<String, String> properties) {
        return proxy(Message.class, (self, method, args) -> switch (method.getName()) {
            case "getJMSMessageID" -> messageId;
            case "getStringProperty" -> properties.get((String) args[0]);
            default -> throw new UnsupportedOperationException(method.getName());
        });
    }

    private static <T> T proxy(Class<T> type, InvocationHandler handler) {
        return type.cast(Proxy.newProxyInstance(MessageIdSourceTest.class.getClassLoader(), new Class<?>[] {type},
                handler));
    }
}
