package io.github.txinbox.internal.binding;

import io.github.txinbox.Inbox;
import jakarta.annotation.Priority;
import jakarta.inject.Inject;
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
 * {@code onMessage} returns) must then learn of a retry, or of a transaction marked for rollback, by an exception, or
 * it acknowledges a message whose work rolled back.
 *
 * <p>Bound by {@link NotesCallersTransaction}, which {@link InboxExtension} adds only to the methods whose binding reads
 * what it notes ({@link InboxBinding.Transaction#NOTED}): a message-driven bean's call does not run it.
 */
@NotesCallersTransaction
@Interceptor
@Priority(Interceptor.Priority.PLATFORM_BEFORE + 100)
public class TransactionBoundary {

    /** The key of the context-data entry; its value is a {@link CallersTransaction}. */
    private static final String KEY = TransactionBoundary.class.getName();

    private TransactionSynchronizationRegistry transactions;

    @Inject
    void init(InboxExtension extension) {
        transactions = extension.transactions();
    }

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
     * Tells whether the transaction now active is the one the caller was in when the call entered. {@code false} when
     * the call's entry was not noted (the container did not run this interceptor): what cannot be known is treated as
     * the call's own transaction, the safe side, since a call that owns its transaction must not return normally when
     * it will not commit.
     *
     * @param contextData the invocation's context data
     * @param current     the key of the transaction now active
     * @return whether the transaction is known to be the caller's
     */
    static boolean callersTransaction(Map<String, Object> contextData, Object current) {
        return contextData.get(KEY) instanceof CallersTransaction callers && callers.key() != null
                && Objects.equals(callers.key(), current);
    }

    /** The caller's transaction key, {@code null} when the caller had none. */
    private record CallersTransaction(Object key) {
    }
}
