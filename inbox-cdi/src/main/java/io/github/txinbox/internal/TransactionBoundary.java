package io.github.txinbox.internal;

import io.github.txinbox.Inbox;
import jakarta.annotation.Priority;
import jakarta.annotation.Resource;
import jakarta.interceptor.AroundInvoke;
import jakarta.interceptor.Interceptor;
import jakarta.interceptor.InvocationContext;
import jakarta.transaction.TransactionSynchronizationRegistry;
import java.util.Map;
import java.util.Objects;

/**
 * Notes, for {@link InboxInterceptor}, which transaction the caller of an {@link Inbox @Inbox} method was in, before
 * a {@code @Transactional} on the method could begin one of its own. It runs outside {@code @Transactional}
 * ({@code PLATFORM_BEFORE + 200}, as the Jakarta Transactions specification places it) and does nothing else.
 *
 * <p>When the claim's transaction is not the caller's, it began with this call and ends when the call returns: the
 * caller (a message-driven bean that does not run in a transaction, whose delivery is acknowledged when
 * {@code onMessage} returns) must then learn of a retry by an exception, or it acknowledges a message whose work
 * rolled back.
 */
@Inbox
@Interceptor
@Priority(Interceptor.Priority.PLATFORM_BEFORE + 100)
public class TransactionBoundary {

    /** The key of the context-data entry; its value is a {@link CallersTransaction}. */
    private static final String KEY = TransactionBoundary.class.getName();

    @Resource(lookup = "java:comp/TransactionSynchronizationRegistry")
    private TransactionSynchronizationRegistry transactions;

    /**
     * Notes the caller's transaction in the invocation's context data, then proceeds.
     *
     * @param invocation the intercepted invocation
     * @return what the rest of the chain returned
     * @throws Exception what the rest of the chain threw
     */
    @AroundInvoke
    public Object note(InvocationContext invocation) throws Exception {
        remember(invocation.getContextData(), transactions.getTransactionKey());
        return invocation.proceed();
    }

    /**
     * Notes the caller's transaction in an invocation's context data.
     *
     * @param contextData the invocation's context data
     * @param callersKey  the key of the caller's transaction, {@code null} when it has none
     */
    static void remember(Map<String, Object> contextData, Object callersKey) {
        contextData.put(KEY, new CallersTransaction(callersKey));
    }

    /**
     * Tells whether the transaction now active began within the intercepted call: it is not the one its caller was
     * in. {@code false} when the call's entry was not noted (the container did not run this interceptor).
     *
     * @param contextData the invocation's context data
     * @param current     the key of the transaction now active
     * @return whether the transaction is the call's own
     */
    static boolean ownTransaction(Map<String, Object> contextData, Object current) {
        return contextData.get(KEY) instanceof CallersTransaction callers && !Objects.equals(callers.key(), current);
    }

    /** The caller's transaction key, {@code null} when the caller had none. */
    private record CallersTransaction(Object key) {
    }
}
