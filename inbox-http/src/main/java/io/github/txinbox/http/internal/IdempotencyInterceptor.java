package io.github.txinbox.http.internal;

import io.github.txinbox.InboxEvent;
import io.github.txinbox.InboxRepository;
import io.github.txinbox.InboxSettings;
import io.github.txinbox.http.Idempotent;
import io.github.txinbox.http.IdempotentSettings;
import jakarta.annotation.Priority;
import jakarta.enterprise.event.Event;
import jakarta.inject.Inject;
import jakarta.inject.Named;
import jakarta.interceptor.AroundInvoke;
import jakarta.interceptor.Interceptor;
import jakarta.interceptor.InvocationContext;
import jakarta.transaction.TransactionSynchronizationRegistry;

/**
 * Applies {@link io.github.txinbox.http.Idempotent @Idempotent} around a resource method, in the method's transaction, by handing each call to
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

    @Inject
    private IdempotentExtension extension;

    /** The registry the core's extension found at deployment, under the name the repository injects it by. */
    @Inject
    @Named("io.github.txinbox.transactions")
    private TransactionSynchronizationRegistry transactions;

    @Inject
    private InboxSettings settings;

    @Inject
    private IdempotentSettings httpSettings;

    @Inject
    private InboxRepository repository;

    @Inject
    private ResponseStore responses;

    @Inject
    private Event<InboxEvent> events;

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
        KeyRules binding = extension.binding(type, invocation.getMethod());
        if (binding == null) {
            if (extension.bound(type)) {
                // The class's @Idempotent does not apply to this method: a GET, or no resource method at all.
                return invocation.proceed();
            }
            throw new IllegalStateException("@Idempotent intercepted " + type.getName() + "." + invocation.getMethod()
                    .getName() + ", which it has no binding for: the class was not discovered in a bean archive of "
                    + "this application");
        }
        return IdempotentExchange.answer(invocation, binding, extension.servletRequest(), repository, responses,
                settings, httpSettings, transactions, events);
    }
}
