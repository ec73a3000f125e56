package io.github.txinbox.http.internal;

import io.github.txinbox.InboxDefinitionException;
import io.github.txinbox.http.Idempotent;
import io.github.txinbox.spi.BindingIndex;
import io.github.txinbox.spi.ScopeOwner;
import io.github.txinbox.spi.ScopeUse;
import jakarta.annotation.Priority;
import jakarta.enterprise.event.Observes;
import jakarta.enterprise.inject.spi.AfterBeanDiscovery;
import jakarta.enterprise.inject.spi.AnnotatedType;
import jakarta.enterprise.inject.spi.BeanManager;
import jakarta.enterprise.inject.spi.Extension;
import jakarta.enterprise.inject.spi.ProcessAnnotatedType;
import jakarta.interceptor.Interceptor;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Binds {@link io.github.txinbox.http.Idempotent @Idempotent} once per application, at deployment: for each type CDI discovers and keeps, it
 * reads the type as the container finally sees it (after other extensions changed or vetoed it, with stereotypes),
 * builds the {@link KeyRules} of each method it applies to, and fails the deployment on misuse, naming the bean and
 * the method. The interceptor and the Jakarta REST feature find the bindings here. As a {@link ScopeOwner}, it tells
 * the core its scopes, which must not be an {@code @Inbox} method's and must fit the scope column.
 */
public class IdempotentExtension implements Extension, ScopeOwner, IdempotentMethods {

    private final BindingIndex<KeyRules> idempotents = new BindingIndex<>();
    private final Set<Class<?>> candidates = ConcurrentHashMap.newKeySet();
    /** The container's request of the current thread, a proxy found at the first call. */
    private volatile Object servletRequest;

    /**
     * Notes the types that may use {@code @Idempotent}, late among the observers, so that changes other extensions
     * make count. Every type is looked at: an extension or a stereotype may have put it there.
     */
    <T> void note(@Observes @Priority(Interceptor.Priority.PLATFORM_AFTER + 900) ProcessAnnotatedType<T> event,
            BeanManager beans) {
        AnnotatedType<T> type = event.getAnnotatedType();
        Class<T> javaClass = type.getJavaClass();
        if (javaClass.isInterface() || Modifier.isAbstract(javaClass.getModifiers())
                || type.isAnnotationPresent(Interceptor.class)) {
            return;
        }
        if (BindingIndex.declared(type.getAnnotations(), Idempotent.class, beans) != null
                || type.getMethods().stream().anyMatch(method -> method.isAnnotationPresent(Idempotent.class))) {
            candidates.add(javaClass);
        }
    }

    /** Binds each noted type as the container finally keeps it, and fails the deployment on misuse. */
    void bind(@Observes AfterBeanDiscovery event, BeanManager beans) {
        List<String> problems = new ArrayList<>();
        for (Class<?> candidate : candidates) {
            for (AnnotatedType<?> type : event.getAnnotatedTypes(candidate)) {
                problems.addAll(bind(type, beans));
            }
        }
        candidates.clear();
        for (String problem : problems) {
            event.addDefinitionError(new InboxDefinitionException(problem));
        }
    }

    private <T> List<String> bind(AnnotatedType<T> type, BeanManager beans) {
        Class<T> javaClass = type.getJavaClass();
        boolean onClass = BindingIndex.declared(type.getAnnotations(), Idempotent.class, beans) != null;
        Map<Method, KeyRules> methods = new LinkedHashMap<>();
        List<String> problems = new ArrayList<>();
        for (BindingIndex.Applied<Idempotent> applied : BindingIndex.applied(type, Idempotent.class, beans,
                IdempotentBinding::appliesFromClass)) {
            Method javaMethod = applied.method().getJavaMember();
            IdempotentBinding.Site site = new IdempotentBinding.Site(javaClass, javaMethod, applied.annotation(),
                    applied.onMethod(), applied.method().getAnnotations(), type.getAnnotations());
            List<String> wrong = IdempotentBinding.problems(site);
            if (wrong.isEmpty()) {
                methods.put(javaMethod, IdempotentBinding.ofValid(site));
            } else {
                problems.addAll(wrong);
            }
        }
        if (problems.isEmpty() && (!methods.isEmpty() || onClass)) {
            idempotents.put(javaClass, methods);
        }
        return problems;
    }

    /**
     * Returns the binding of a method of an intercepted instance ({@link BindingIndex#binding}).
     *
     * @param type   the class of the intercepted instance
     * @param method the intercepted method
     * @return the binding, or {@code null} when {@code @Idempotent} does not apply to that method of that class
     */
    KeyRules binding(Class<?> type, Method method) {
        return idempotents.binding(type, method);
    }

    /**
     * Whether {@code @Idempotent} was bound on the intercepted instance's class: a method of such a class without a
     * binding is one that the class's annotation does not apply to (a {@code GET}, say).
     *
     * @param type the class of the intercepted instance
     * @return whether the class or a superclass was bound
     */
    boolean bound(Class<?> type) {
        return idempotents.bound(type);
    }

    @Override
    public boolean bound(Class<?> resourceClass, Method method) {
        return idempotents.binding(resourceClass, method) != null;
    }

    /**
     * Whether the application has {@code @Idempotent} methods, which store responses in the inbox table.
     *
     * @return whether any method was bound
     */
    boolean storesResponses() {
        return !idempotents.isEmpty();
    }

    /**
     * Returns the container's {@code HttpServletRequest} bean, a proxy to the current thread's request, found once.
     *
     * @return the proxy
     */
    Object servletRequest() {
        Object found = servletRequest;
        if (found == null) {
            found = IdempotentExchange.servletRequest();
            servletRequest = found;
        }
        return found;
    }

    @Override
    public List<ScopeUse> scopeUses() {
        List<ScopeUse> uses = new ArrayList<>();
        for (Map<Method, KeyRules> methods : idempotents.all()) {
            for (KeyRules binding : methods.values()) {
                uses.add(new ScopeUse(binding.scope(), binding.longestScope(), "@Idempotent on "
                        + binding.description() + (binding.perPrincipal() ? " (with the "
                        + Idempotent.PRINCIPAL_SUFFIX_LENGTH + " bytes a caller's keys add)" : ""),
                        "an idempotency key"));
            }
        }
        return uses;
    }
}
