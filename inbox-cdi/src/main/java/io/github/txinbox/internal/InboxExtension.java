package io.github.txinbox.internal;

import io.github.txinbox.Inbox;
import io.github.txinbox.InboxDefinitionException;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.enterprise.inject.spi.AfterBeanDiscovery;
import jakarta.enterprise.inject.spi.BeforeBeanDiscovery;
import jakarta.enterprise.inject.spi.Extension;
import jakarta.enterprise.inject.spi.ProcessAnnotatedType;
import jakarta.enterprise.inject.spi.WithAnnotations;
import jakarta.interceptor.Interceptor;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.logging.Logger;

/**
 * Checks every use of {@link Inbox @Inbox} that CDI discovers and fails the deployment on misuse, naming the bean and
 * the method: the same checks the interceptor would otherwise make on the first call (see {@link InboxBinding}). It
 * also adds {@link InboxMetrics} where the MicroProfile Metrics API is present, and keeps the scopes named in
 * {@code @Inbox} for {@link StartupCheck}, which checks them against the configured limit.
 */
public class InboxExtension implements Extension {

    private static final Logger LOG = Logger.getLogger(InboxExtension.class.getName());

    private final List<String> problems = new ArrayList<>();
    private final Map<String, String> scopes = new ConcurrentHashMap<>();

    void addMetrics(@Observes BeforeBeanDiscovery event) {
        if (Optionals.present(Optionals.METRIC_REGISTRY, InboxExtension.class.getClassLoader())) {
            event.addAnnotatedType(InboxMetrics.class, InboxMetrics.class.getName())
                    .add(ApplicationScoped.Literal.INSTANCE);
        } else {
            LOG.fine("No MicroProfile Metrics API: the inbox records no metrics");
        }
    }

    <T> void inspect(@Observes @WithAnnotations(Inbox.class) ProcessAnnotatedType<T> event) {
        Class<T> type = event.getAnnotatedType().getJavaClass();
        List<String> found = problems(type);
        problems.addAll(found);
        if (found.isEmpty()) {
            scopes.putAll(namedScopes(type));
        }
    }

    /**
     * Returns the scopes that {@code @Inbox} names explicitly in the deployment's beans.
     *
     * @return each scope, with where it is named
     */
    public Map<String, String> namedScopes() {
        return Map.copyOf(scopes);
    }

    void report(@Observes AfterBeanDiscovery event) {
        for (String problem : problems) {
            event.addDefinitionError(new InboxDefinitionException(problem));
        }
        problems.clear();
    }

    /**
     * Lists the misuses of {@code @Inbox} in a class: on each annotated method, or on each public method when the
     * class itself is annotated.
     *
     * @param type the class
     * @return the problems; empty when every use is valid
     */
    public static List<String> problems(Class<?> type) {
        List<String> found = new ArrayList<>();
        for (Method method : boundMethods(type)) {
            found.addAll(InboxBinding.problems(type, method));
        }
        return found;
    }

    private static Map<String, String> namedScopes(Class<?> type) {
        Map<String, String> named = new LinkedHashMap<>();
        for (Method method : boundMethods(type)) {
            String scope = InboxBinding.annotation(type, method).scope();
            if (!scope.isEmpty()) {
                named.putIfAbsent(scope, "@Inbox on " + type.getName() + '.' + method.getName());
            }
        }
        return named;
    }

    /**
     * The methods {@code @Inbox} applies to in a class: each annotated method, or each public method when the class
     * itself is annotated; none in interfaces, abstract classes and interceptors.
     */
    private static List<Method> boundMethods(Class<?> type) {
        List<Method> bound = new ArrayList<>();
        if (type.isInterface() || Modifier.isAbstract(type.getModifiers())
                || type.isAnnotationPresent(Interceptor.class)) {
            // Interceptors carry the binding to say what they intercept, not to be intercepted.
            return bound;
        }
        boolean classLevel = type.isAnnotationPresent(Inbox.class);
        for (Method method : interceptedMethods(type)) {
            if (classLevel || method.isAnnotationPresent(Inbox.class)) {
                bound.add(method);
            }
        }
        return bound;
    }

    /** Public and annotated instance methods of the class and its superclasses, overrides counted once. */
    private static Iterable<Method> interceptedMethods(Class<?> type) {
        Map<String, Method> methods = new LinkedHashMap<>();
        for (Class<?> c = type; c != null && c != Object.class; c = c.getSuperclass()) {
            for (Method method : c.getDeclaredMethods()) {
                int modifiers = method.getModifiers();
                boolean candidate = !Modifier.isStatic(modifiers) && !method.isSynthetic() && !method.isBridge()
                        && (Modifier.isPublic(modifiers) || method.isAnnotationPresent(Inbox.class));
                if (candidate) {
                    methods.putIfAbsent(method.getName() + java.util.Arrays.toString(method.getParameterTypes()),
                            method);
                }
            }
        }
        return methods.values();
    }
}
