package io.github.txinbox.internal.binding;

import io.github.txinbox.Idempotent;
import io.github.txinbox.InboxEvent;
import io.github.txinbox.InboxRepository;
import io.github.txinbox.InboxSettings;
import io.github.txinbox.internal.http.IdempotentExchange;
import io.github.txinbox.internal.http.KeyRules;
import jakarta.annotation.Priority;
import jakarta.enterprise.event.Event;
import jakarta.inject.Inject;
import jakarta.interceptor.AroundInvoke;
import jakarta.interceptor.Interceptor;
import jakarta.interceptor.InvocationContext;
import jakarta.transaction.TransactionSynchronizationRegistry;

/**
 * Applies {@link Idempotent @Idempotent} around a resource method, in the method's transaction, by handing each call to
 * {@link IdempotentExchange}. It names no Jakarta REST or Servlet type, so that the container can load it (as it loads
 * every interceptor of the library's bean archive) on a server without them.
 *
 * <p>Enabled by its {@link Priority}, at the same place as the {@code @Inbox} interceptor: after the container has
 * begun the transaction, and before the application's own interceptors, so that a replay runs none of them.
 */
@Idempotent
@Interceptor
@Priority(Interceptor.Priority.LIBRARY_BEFORE + 100)
public class IdempotencyInterceptor {

    private InboxExtension extension;

    private TransactionSynchronizationRegistry transactions;

    @Inject
    private InboxSettings settings;

    @Inject
    private InboxRepository repository;

    @Inject
    private Event<InboxEvent> events;

    @Inject
    void init(InboxExtension extension) {
        this.extension = extension;
        this.transactions = extension.transactions();
    }

    /**
     * Answers the request: a problem, a replay, or the method's own response, stored.
     *
     * @param invocation the intercepted invocation
     * @return the response
     * @throws Exception what the method threw, unchanged, after marking its transaction for rollback
     */
    @AroundInvoke
    public Object apply(InvocationContext invocation) throws Exception {
        Class<?> type = invocation.getTarget().getClass();
        KeyRules binding = extension.idempotent(type, invocation.getMethod());
        if (binding == null) {
            if (extension.idempotentBound(type)) {
                // The class's @Idempotent does not apply to this method: a GET, or no resource method at all.
                return invocation.proceed();
            }
            throw new IllegalStateException("@Idempotent intercepted " + type.getName() + "." + invocation.getMethod()
                    .getName() + ", which it has no binding for: the class was not discovered in a bean archive of "
                    + "this application");
        }
        Object request = extension.servletRequest(IdempotentExchange::servletRequest);
        return IdempotentExchange.answer(invocation, binding, request, repository, settings, transactions, events);
    }
}
