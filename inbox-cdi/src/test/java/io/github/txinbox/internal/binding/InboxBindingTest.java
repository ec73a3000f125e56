package io.github.txinbox.internal.binding;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.txinbox.Inbox;
import io.github.txinbox.InboxDefinitionException;
import io.github.txinbox.InboxResult;
import io.github.txinbox.MessageIdResolver;
import jakarta.ejb.TransactionAttribute;
import jakarta.ejb.TransactionAttributeType;
import jakarta.ejb.TransactionManagement;
import jakarta.ejb.TransactionManagementType;
import jakarta.interceptor.InvocationContext;
import jakarta.jms.Message;
import jakarta.jms.MessageListener;
import jakarta.jms.TextMessage;
import jakarta.transaction.Transactional;
import java.lang.reflect.Method;
import java.util.Arrays;
import java.util.List;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;

class InboxBindingTest {

    @jakarta.ejb.MessageDriven
    static class MessageDrivenListener implements MessageListener {
        @Override
        @Inbox
        public void onMessage(Message message) {
        }
    }

    @jakarta.ejb.Stateless
    static class SessionHandlers {
        @Inbox
        public void required(Message message) {
        }

        @Inbox
        @TransactionAttribute(TransactionAttributeType.REQUIRES_NEW)
        public void requiresNew(Message message) {
        }

        @Inbox
        @TransactionAttribute(TransactionAttributeType.MANDATORY)
        public void mandatory(Message message) {
        }
    }

    @Test
    void aMessageDrivenBeanRunsInItsCallersTransactionTheContainersDelivery() {
        assertEquals(InboxBinding.Transaction.CALLERS,
                binding(MessageDrivenListener.class, "onMessage").transaction());
    }

    @Test
    void aSessionBeanOwnsItsTransactionUnlessItIsMandatory() {
        assertEquals(InboxBinding.Transaction.UNKNOWN, binding(SessionHandlers.class, "required").transaction());
        assertEquals(InboxBinding.Transaction.UNKNOWN, binding(SessionHandlers.class, "requiresNew").transaction());
        assertEquals(InboxBinding.Transaction.CALLERS, binding(SessionHandlers.class, "mandatory").transaction());
    }

    @Test
    void aRecordKeyWithoutExactTextFailsTheDeployment() {
        assertTrue(problems(KafkaHandlers.class, "byteBufferKey").isEmpty());
        assertTrue(problem(KafkaHandlers.class, "doubleKey").contains("reads the id from the record's key, a "
                + "java.lang.Double, which has no exact text to be an id"), problem(KafkaHandlers.class, "doubleKey"));
        assertTrue(problem(KafkaHandlers.class, "arrayKey").contains("a [I, which"),
                problem(KafkaHandlers.class, "arrayKey"));
    }

    @Test
    void aCdiBeanLeavesItToTheNotedBoundary() {
        assertEquals(InboxBinding.Transaction.NOTED, binding(Listener.class, "onMessage").transaction());
    }

    @Inbox
    static class Listener implements MessageListener {
        @Override
        public void onMessage(Message message) {
        }
    }

    static class KafkaHandlers {
        @Inbox(scope = "orders", key = "message-id")
        public void byHeader(String note, ConsumerRecord<String, String> record) {
        }

        @Inbox(key = Inbox.KAFKA_TOPIC_PARTITION_OFFSET)
        public void byPlace(ConsumerRecord<String, String> record) {
        }

        @Inbox
        public void noKey(ConsumerRecord<String, String> record) {
        }

        @Inbox(key = Inbox.JMS_MESSAGE_ID)
        public void jmsMessageId(ConsumerRecord<String, String> record) {
        }

        @Inbox(key = Inbox.KAFKA_RECORD_KEY)
        public void kafkaKeyOnJms(Message message) {
        }

        @Inbox(key = Inbox.KAFKA_RECORD_KEY)
        public void byteBufferKey(ConsumerRecord<java.nio.ByteBuffer, String> record) {
        }

        @Inbox(key = Inbox.KAFKA_RECORD_KEY)
        public void doubleKey(ConsumerRecord<Double, String> record) {
        }

        @Inbox(key = Inbox.KAFKA_RECORD_KEY)
        public void arrayKey(ConsumerRecord<int[], String> record) {
        }
    }

    static class KafkaBatchHandlers {
        @Inbox(scope = "orders", key = "message-id")
        public void batch(String note, List<ConsumerRecord<String, String>> records) {
        }

        @Inbox(key = Inbox.KAFKA_RECORD_KEY)
        public void wildcard(List<? extends ConsumerRecord<Long, String>> records) {
        }

        @Inbox(key = Inbox.KAFKA_RECORD_KEY)
        public void doubleKeys(List<ConsumerRecord<Double, String>> records) {
        }

        @Inbox
        public void noKey(List<ConsumerRecord<String, String>> records) {
        }

        @Inbox(key = "message-id")
        public InboxResult result(List<ConsumerRecord<String, String>> records) {
            return InboxResult.processed();
        }

        @Inbox(key = "message-id")
        public void strings(List<String> values) {
        }

        @Inbox(resolver = OrderIds.class)
        public void resolved(List<ConsumerRecord<String, String>> records) {
        }
    }

    @Test
    void aListOfKafkaRecordsIsABatchReadRecordByRecord() {
        InboxBinding batch = binding(KafkaBatchHandlers.class, "batch");
        assertTrue(batch.batch());
        assertEquals("orders", batch.scope());
        assertEquals(new MessageIdSource.KafkaRecordId(batch.description(), 1, "message-id"), batch.messageId());
        InboxBinding wildcard = binding(KafkaBatchHandlers.class, "wildcard");
        assertTrue(wildcard.batch());
        assertEquals(new MessageIdSource.KafkaRecordId(wildcard.description(), 0, Inbox.KAFKA_RECORD_KEY),
                wildcard.messageId());
        assertFalse(binding(KafkaHandlers.class, "byHeader").batch(), "one record is no batch");
        assertFalse(binding(KafkaBatchHandlers.class, "resolved").batch(), "a resolver reads one id per call");
    }

    @Test
    void aBatchFollowsTheRecordsRulesAndReturnsVoid() {
        assertTrue(problem(KafkaBatchHandlers.class, "noKey").startsWith("@Inbox on " + KafkaBatchHandlers.class.getName()
                + ".noKey takes a Kafka List<ConsumerRecord>, which carries no message id: name the header"));
        assertTrue(problem(KafkaBatchHandlers.class, "doubleKeys").contains("reads the id from the record's key, a "
                + "java.lang.Double, which has no exact text to be an id"));
        assertTrue(problem(KafkaBatchHandlers.class, "result").endsWith("takes a batch of Kafka records and returns "
                + "InboxResult, which speaks for one message; a batch method returns void (a record it does not "
                + "process it simply leaves alone)"));
        assertTrue(problem(KafkaBatchHandlers.class, "strings").contains("has no jakarta.jms.Message, Kafka "
                + "ConsumerRecord or List<ConsumerRecord> parameter"), "a list of anything else is no batch");
    }

    static class Handlers {
        @Inbox(scope = "billing", key = "orderId")
        public InboxResult handle(String note, TextMessage message) {
            return InboxResult.processed();
        }

        @Inbox(resolver = OrderIds.class, rethrowRetry = true)
        public void byResolver(String orderId) {
        }

        @Inbox
        public String returnsString(Message message) {
            return "";
        }

        @Inbox
        public void noMessage(String text) {
        }

        @Inbox(key = "orderId", resolver = OrderIds.class)
        public void keyAndResolver(Message message) {
        }

        @Inbox(scope = " ")
        public void blankScope(Message message) {
        }

        @Inbox(resolver = MessageIdResolver.class)
        public void defaultResolverIsNone(Message message) {
        }

        @Inbox
        @TransactionAttribute(TransactionAttributeType.NOT_SUPPORTED)
        public void notSupported(Message message) {
        }

        @Inbox
        @Transactional(Transactional.TxType.NEVER)
        public void never(Message message) {
        }

        @Inbox
        @TransactionAttribute(TransactionAttributeType.MANDATORY)
        public void mandatory(Message message) {
        }

        @Inbox(key = Inbox.JMS_MESSAGE_ID)
        public void headerWhateverTheSetting(Message message) {
        }
    }

    @Test
    void theConfiguredKeyAppliesWhereInboxNamesNone() {
        assertEquals(new MessageIdSource.JmsMessageId(Listener.class.getName() + ".onMessage", 0, null),
                binding(Listener.class, "onMessage").messageId(), "the property txinbox.key names");
        assertEquals(new MessageIdSource.JmsMessageId(Handlers.class.getName() + ".handle", 1, "orderId"),
                binding(Handlers.class, "handle").messageId(), "a named key wins");
        assertEquals(new MessageIdSource.JmsMessageId(Handlers.class.getName() + ".headerWhateverTheSetting", 0, ""),
                binding(Handlers.class, "headerWhateverTheSetting").messageId(), "JMSMessageID named explicitly");
    }

    @Inbox
    @TransactionManagement(TransactionManagementType.BEAN)
    static class BeanManagedListener implements MessageListener {
        @Override
        public void onMessage(Message message) {
        }
    }

    @TransactionAttribute(TransactionAttributeType.NOT_SUPPORTED)
    static class NotSupportedBean {
        @Inbox
        public void handle(Message message) {
        }

        @Inbox
        @TransactionAttribute(TransactionAttributeType.REQUIRED)
        public void overridden(Message message) {
        }
    }

    static class OrderIds implements MessageIdResolver {
        @Override
        public String messageId(InvocationContext invocation) {
            return "x";
        }
    }

    private static Method method(Class<?> type, String name) {
        for (Method method : type.getDeclaredMethods()) {
            if (method.getName().equals(name)) {
                return method;
            }
        }
        throw new AssertionError(name);
    }

    /** The site as a container reads it from the class alone: no stereotypes, no other extension. */
    private static InboxBinding.Site site(Class<?> type, String name) {
        Method method = method(type, name);
        Inbox inbox = method.isAnnotationPresent(Inbox.class) ? method.getAnnotation(Inbox.class)
                : type.getAnnotation(Inbox.class);
        return new InboxBinding.Site(type, method, inbox, Arrays.asList(method.getAnnotations()),
                Arrays.asList(type.getAnnotations()));
    }

    private static InboxBinding binding(Class<?> type, String name) {
        return InboxBinding.of(site(type, name));
    }

    private static List<String> problems(Class<?> type, String name) {
        return InboxBinding.problems(site(type, name));
    }

    private static String problem(Class<?> type, String name) {
        List<String> problems = problems(type, name);
        assertEquals(1, problems.size(), problems.toString());
        return problems.get(0);
    }

    @Test
    void aClassLevelBindingOnAListenerDefaultsToTheClassNameAndJmsMessageId() {
        InboxBinding binding = binding(Listener.class, "onMessage");
        assertEquals(Listener.class.getName(), binding.scope());
        assertEquals(new MessageIdSource.JmsMessageId(binding.description(), 0, null), binding.messageId());
        assertFalse(binding.returnsInboxResult());
        assertFalse(binding.rethrowRetry());
        assertEquals(Listener.class.getName() + ".onMessage", binding.description());
    }

    @Test
    void readsScopeKeyMessageSubtypeAndResultType() {
        InboxBinding binding = binding(Handlers.class, "handle");
        assertEquals("billing", binding.scope());
        assertEquals(new MessageIdSource.JmsMessageId(binding.description(), 1, "orderId"), binding.messageId());
        assertTrue(binding.returnsInboxResult());
    }

    @Test
    void aResolverNeedsNoMessageParameter() {
        InboxBinding binding = binding(Handlers.class, "byResolver");
        MessageIdSource.ResolverId resolver = assertInstanceOf(MessageIdSource.ResolverId.class, binding.messageId());
        assertEquals(OrderIds.class, resolver.type());
        assertTrue(binding.rethrowRetry());
        assertInstanceOf(MessageIdSource.JmsMessageId.class,
                binding(Handlers.class, "defaultResolverIsNone").messageId());
    }

    @Test
    void refusesOtherReturnTypes() {
        assertTrue(problem(Handlers.class, "returnsString").endsWith(
                "returns java.lang.String; an @Inbox method must return void or InboxResult"));
    }

    @Test
    void refusesAMethodWithNeitherMessageNorResolver() {
        String problem = problem(Handlers.class, "noMessage");
        assertTrue(problem.startsWith("@Inbox on " + Handlers.class.getName() + ".noMessage has no "
                + "jakarta.jms.Message, Kafka ConsumerRecord or List<ConsumerRecord> parameter"), problem);
    }

    @Test
    void refusesKeyAndResolverTogether() {
        assertTrue(problem(Handlers.class, "keyAndResolver").contains("names both a key property ('orderId')"));
    }

    @Test
    void refusesABlankScope() {
        assertTrue(problem(Handlers.class, "blankScope").endsWith("has an invalid scope: scope must not be blank"));
    }

    @Test
    void refusesMethodsThatRunWithoutATransaction() {
        assertTrue(problem(Handlers.class, "notSupported").contains("@TransactionAttribute(NOT_SUPPORTED)"));
        assertTrue(problem(Handlers.class, "never").contains("@Transactional(NEVER)"));
        assertTrue(problems(Handlers.class, "mandatory").isEmpty());
        assertTrue(problem(NotSupportedBean.class, "handle").contains("@TransactionAttribute(NOT_SUPPORTED)"));
        assertTrue(problems(NotSupportedBean.class, "overridden")
                .isEmpty(), "a method-level attribute overrides the class's");
    }

    @Test
    void refusesBeanManagedTransactions() {
        String problem = problem(BeanManagedListener.class, "onMessage");
        assertTrue(problem.contains(
                "the bean uses bean-managed transactions; @Inbox needs a container-managed transaction to write "
                        + "its marker in. To acknowledge the message only after the inbox's transaction commits"),
                problem);
        assertTrue(problem.endsWith("move @Inbox to a @Transactional method of a CDI bean that it calls "
                + "(see docs/without-xa.md)"), problem);
    }

    /** A transaction attribute whose value cannot be read, as when its enum is missing from the class path. */
    @SuppressWarnings("all")
    private static final class UnreadableAttribute implements TransactionAttribute {
        @Override
        public TransactionAttributeType value() {
            throw new EnumConstantNotPresentException(TransactionAttributeType.class, "SOMETIMES");
        }

        @Override
        public Class<? extends java.lang.annotation.Annotation> annotationType() {
            return TransactionAttribute.class;
        }
    }

    @Test
    void anAttributeThatCannotBeReadIsAProblemNotASkippedCheck() {
        Method method = method(Listener.class, "onMessage");
        InboxBinding.Site site = new InboxBinding.Site(Listener.class, method,
                Listener.class.getAnnotation(Inbox.class), List.of(new UnreadableAttribute()), List.of());
        List<String> problems = InboxBinding.problems(site);
        assertEquals(List.of("@Inbox on " + Listener.class.getName() + ".onMessage: the value of its "
                + "@jakarta.ejb.TransactionAttribute cannot be read (java.lang.EnumConstantNotPresentException: "
                + "jakarta.ejb.TransactionAttributeType.SOMETIMES), so whether it runs in a transaction cannot be "
                + "checked"), problems);
    }

    @Test
    void ofThrowsWithEveryProblem() {
        InboxDefinitionException e = assertThrows(InboxDefinitionException.class,
                () -> binding(BeanManagedListener.class, "onMessage"));
        assertTrue(e.getMessage().contains(BeanManagedListener.class.getName() + ".onMessage"), e.getMessage());
    }


    @Test
    void aKafkaRecordsIdIsWhereTheKeySaysWhateverTheSetting() {
        InboxBinding binding = binding(KafkaHandlers.class, "byHeader");
        assertEquals(new MessageIdSource.KafkaRecordId(binding.description(), 1, "message-id"), binding.messageId());
        InboxBinding byPlace = binding(KafkaHandlers.class, "byPlace");
        assertEquals(new MessageIdSource.KafkaRecordId(byPlace.description(), 0, Inbox.KAFKA_TOPIC_PARTITION_OFFSET),
                byPlace.messageId());
    }

    @Test
    void refusesAKafkaRecordWithoutAKey() {
        for (String method : List.of("noKey", "jmsMessageId")) {
            String problem = problem(KafkaHandlers.class, method);
            assertTrue(problem.startsWith("@Inbox on " + KafkaHandlers.class.getName() + "." + method + " takes a "
                    + "Kafka ConsumerRecord, which carries no message id: name the header"), problem);
        }
    }

    @Test
    void refusesAKafkaKeyOnAJmsMessage() {
        String problem = problem(KafkaHandlers.class, "kafkaKeyOnJms");
        assertTrue(problem.endsWith("names the key 'kafka:key', which only a Kafka ConsumerRecord has, but takes a "
                + "JMS message"), problem);
    }

    @Test
    void recognisesJmsMessageTypesByName() {
        assertTrue(JmsMessageIds.isMessage(Message.class));
        assertTrue(JmsMessageIds.isMessage(TextMessage.class));
        assertFalse(JmsMessageIds.isMessage(String.class));
        assertFalse(JmsMessageIds.isMessage(MessageListener.class));
    }

}
