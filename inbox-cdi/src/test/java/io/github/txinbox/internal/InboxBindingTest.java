package io.github.txinbox.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
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
import java.util.List;
import org.junit.jupiter.api.Test;

class InboxBindingTest {

    @Inbox
    static class Listener implements MessageListener {
        @Override
        public void onMessage(Message message) {
        }
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
    void theConfiguredKeyAppliesWhereInboxNamesNone() throws Exception {
        Method onMessage = Listener.class.getMethod("onMessage", Message.class);
        assertEquals("", InboxBinding.of(Listener.class, onMessage).key());
        assertEquals("orderId", InboxBinding.of(Listener.class, onMessage, "orderId").key());
        Method handle = Handlers.class.getMethod("handle", String.class, TextMessage.class);
        assertEquals("orderId", InboxBinding.of(Handlers.class, handle, "tenantId").key(), "a named key wins");
        Method header = Handlers.class.getMethod("headerWhateverTheSetting", Message.class);
        assertEquals("", InboxBinding.of(Handlers.class, header, "orderId").key(), "JMSMessageID named explicitly");
        Method byResolver = Handlers.class.getMethod("byResolver", String.class);
        assertEquals("", InboxBinding.of(Handlers.class, byResolver, "orderId").key(), "a resolver reads no key");
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

    private static String problem(Class<?> type, String name) {
        List<String> problems = InboxBinding.problems(type, method(type, name));
        assertEquals(1, problems.size(), problems.toString());
        return problems.get(0);
    }

    @Test
    void aClassLevelBindingOnAListenerDefaultsToTheClassNameAndJmsMessageId() {
        InboxBinding binding = InboxBinding.of(Listener.class, method(Listener.class, "onMessage"));
        assertEquals(Listener.class.getName(), binding.scope());
        assertEquals("", binding.key());
        assertNull(binding.resolver());
        assertEquals(0, binding.messageParameter());
        assertFalse(binding.returnsInboxResult());
        assertFalse(binding.rethrowRetry());
        assertEquals(Listener.class.getName() + ".onMessage", binding.description());
    }

    @Test
    void readsScopeKeyMessageSubtypeAndResultType() {
        InboxBinding binding = InboxBinding.of(Handlers.class, method(Handlers.class, "handle"));
        assertEquals("billing", binding.scope());
        assertEquals("orderId", binding.key());
        assertEquals(1, binding.messageParameter());
        assertTrue(binding.returnsInboxResult());
    }

    @Test
    void aResolverNeedsNoMessageParameter() {
        InboxBinding binding = InboxBinding.of(Handlers.class, method(Handlers.class, "byResolver"));
        assertEquals(OrderIds.class, binding.resolver());
        assertEquals(-1, binding.messageParameter());
        assertTrue(binding.rethrowRetry());
        assertNull(InboxBinding.of(Handlers.class, method(Handlers.class, "defaultResolverIsNone")).resolver());
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
                + "jakarta.jms.Message parameter"), problem);
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
        assertTrue(InboxBinding.problems(Handlers.class, method(Handlers.class, "mandatory")).isEmpty());
        assertTrue(problem(NotSupportedBean.class, "handle").contains("@TransactionAttribute(NOT_SUPPORTED)"));
        assertTrue(InboxBinding.problems(NotSupportedBean.class, method(NotSupportedBean.class, "overridden"))
                .isEmpty(), "a method-level attribute overrides the class's");
    }

    @Test
    void refusesBeanManagedTransactions() {
        assertTrue(problem(BeanManagedListener.class, "onMessage").endsWith(
                "the bean uses bean-managed transactions; @Inbox needs a container-managed transaction to write "
                        + "its marker in"));
    }

    @Test
    void ofThrowsWithEveryProblem() {
        InboxDefinitionException e = assertThrows(InboxDefinitionException.class,
                () -> InboxBinding.of(BeanManagedListener.class, method(BeanManagedListener.class, "onMessage")));
        assertTrue(e.getMessage().contains(BeanManagedListener.class.getName() + ".onMessage"), e.getMessage());
    }

    @Test
    void theExtensionFindsEveryMisuseInAClass() {
        assertTrue(InboxExtension.problems(Listener.class).isEmpty());
        List<String> problems = InboxExtension.problems(Handlers.class);
        assertEquals(6, problems.size(), problems.toString());
        assertEquals(1, InboxExtension.problems(BeanManagedListener.class).size());
        assertTrue(InboxExtension.problems(InboxInterceptor.class).isEmpty(), "the interceptor is not a use");
    }

    @Test
    void recognisesJmsMessageTypesByName() {
        assertTrue(JmsMessageIds.isMessage(Message.class));
        assertTrue(JmsMessageIds.isMessage(TextMessage.class));
        assertFalse(JmsMessageIds.isMessage(String.class));
        assertFalse(JmsMessageIds.isMessage(MessageListener.class));
    }

    @Test
    void seesThroughGeneratedSubclasses() {
        class Listener$Proxy$_$$_WeldSubclass extends Listener {
        }
        assertEquals(Listener.class, InboxInterceptor.beanClass(new Listener$Proxy$_$$_WeldSubclass()));
        assertEquals(Listener.class, InboxInterceptor.beanClass(new Listener()));
    }
}
