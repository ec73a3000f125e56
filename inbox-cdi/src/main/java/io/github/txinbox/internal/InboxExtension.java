package io.github.txinbox.internal;

import io.github.txinbox.Inbox;
import io.github.txinbox.InboxDefinitionException;
import jakarta.enterprise.event.Observes;
import jakarta.enterprise.inject.spi.AfterBeanDiscovery;
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

/**
 * Checks every use of {@link Inbox @Inbox} that CDI discovers and fails the deployment on misuse, naming the bean and
 * the method: the same checks the interceptor would otherwise make on the first call (see {@link InboxBinding}).
 */
public class InboxExtension implements Extension {

    private final List<String> problems = new ArrayList<>();

    <T> void inspect(@Observes @WithAnnotations(Inbox.class) ProcessAnnotatedType<T> event) {
        problems.addAll(problems(event.getAnnotatedType().getJavaClass()));
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
        if (type.isInterface() || Modifier.isAbstract(type.getModifiers())
                || type.isAnnotationPresent(Interceptor.class)) {
            // Interceptors carry the binding to say what they intercept, not to be intercepted.
            return found;
        }
        boolean classLevel = type.isAnnotationPresent(Inbox.class);
        for (Method method : interceptedMethods(type)) {
            if (classLevel || method.isAnnotationPresent(Inbox.class)) {
                found.addAll(InboxBinding.problems(type, method));
            }
        }
        return found;
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
