package io.github.txinbox.spi;

import jakarta.enterprise.inject.spi.AnnotatedMethod;
import jakarta.enterprise.inject.spi.AnnotatedType;
import jakarta.enterprise.inject.spi.BeanManager;
import java.lang.annotation.Annotation;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Predicate;

/**
 * The bindings of one interceptor binding type, by bean class and method, as an extension built them at deployment,
 * and the lookup of an intercepted call's binding. Thread-safe: filled at deployment, read by every call.
 *
 * @param <B> the binding
 */
public final class BindingIndex<B> {

    private final Map<Class<?>, Map<Method, B>> bindings = new ConcurrentHashMap<>();
    /**
     * The bindings calls have found, by the intercepted instance's class and the method as the container names it, so
     * that later calls find theirs without walking the class's superclasses or comparing signatures.
     */
    private final Map<Class<?>, Map<Method, B>> found = new ConcurrentHashMap<>();

    /**
     * Keeps the bindings of a bean class's methods.
     *
     * @param beanClass the bean class
     * @param methods   its bound methods and their bindings
     */
    public void put(Class<?> beanClass, Map<Method, B> methods) {
        bindings.put(beanClass, Map.copyOf(methods));
    }

    /**
     * The bindings of every bean class.
     *
     * @return each bean class's bindings
     */
    public Iterable<Map<Method, B>> all() {
        return bindings.values();
    }

    /**
     * Whether no bean class was bound.
     *
     * @return whether there are no bindings
     */
    public boolean isEmpty() {
        return bindings.isEmpty();
    }

    /**
     * Whether the intercepted instance's class, or a superclass, was bound at all.
     *
     * @param type the class of the intercepted instance
     * @return whether some class from it up has bindings
     */
    public boolean bound(Class<?> type) {
        for (Class<?> c = type; c != null && c != Object.class; c = c.getSuperclass()) {
            if (bindings.containsKey(c)) {
                return true;
            }
        }
        return false;
    }

    /**
     * Returns the binding of a method of an intercepted instance: that of the nearest class, from the instance's own
     * class up, that was bound. The instance's class is the bean class, or a subclass the container generated to
     * intercept or decorate it. Found once per class and method, then kept: a call finds its binding in two lookups.
     *
     * @param type   the class of the intercepted instance
     * @param method the intercepted method
     * @return the binding, or {@code null} when none applies to that method of that class
     */
    public B binding(Class<?> type, Method method) {
        Map<Method, B> known = found.get(type);
        B binding = known == null ? null : known.get(method);
        if (binding == null) {
            binding = find(type, method);
            if (binding != null) {
                found.computeIfAbsent(type, key -> new ConcurrentHashMap<>()).put(method, binding);
            }
        }
        return binding;
    }

    /** Looks for the binding of a method of an intercepted instance's class: from that class up, then by signature. */
    private B find(Class<?> type, Method method) {
        for (Class<?> c = type; c != null && c != Object.class; c = c.getSuperclass()) {
            Map<Method, B> methods = bindings.get(c);
            if (methods != null) {
                return binding(methods, method);
            }
        }
        return null;
    }

    private B binding(Map<Method, B> methods, Method method) {
        B binding = methods.get(method);
        if (binding == null) {
            // The container may name the method by an interface that declares it (MessageListener.onMessage).
            for (Map.Entry<Method, B> entry : methods.entrySet()) {
                if (sameSignature(entry.getKey(), method)) {
                    return entry.getValue();
                }
            }
        }
        return binding;
    }

    private static boolean sameSignature(Method a, Method b) {
        return a.getName().equals(b.getName()) && Arrays.equals(a.getParameterTypes(), b.getParameterTypes());
    }

    /**
     * The binding annotation of that type among a type's annotations, directly or through a stereotype, as the
     * container finally sees them at deployment.
     *
     * @param <A>         the annotation type
     * @param annotations the annotations
     * @param type        the binding annotation's type
     * @param beans       the container, which knows the stereotypes
     * @return the annotation, or {@code null} when none
     */
    public static <A extends Annotation> A declared(Collection<Annotation> annotations, Class<A> type,
            BeanManager beans) {
        for (Annotation annotation : annotations) {
            if (type.isInstance(annotation)) {
                return type.cast(annotation);
            }
        }
        for (Annotation annotation : annotations) {
            if (beans.isStereotype(annotation.annotationType())) {
                A inherited = declared(beans.getStereotypeDefinition(annotation.annotationType()), type, beans);
                if (inherited != null) {
                    return inherited;
                }
            }
        }
        return null;
    }

    /**
     * A method a binding annotation applies to.
     *
     * @param <A>        the annotation type
     * @param method     the method, as the container finally sees it
     * @param annotation the annotation that applies: the method's own, else its class's
     * @param onMethod   whether the annotation is on the method itself
     */
    public record Applied<A extends Annotation>(AnnotatedMethod<?> method, A annotation, boolean onMethod) {
    }

    /**
     * The methods of a type that a binding annotation applies to: those it is on, and the public ones of a class it is
     * on (directly or through a stereotype) that {@code fromClass} accepts; never static, synthetic or bridge methods,
     * nor those of {@code Object} from the class's annotation.
     *
     * @param <A>        the annotation type
     * @param type       the type, as the container finally sees it
     * @param annotation the binding annotation's type
     * @param beans      the container, which knows the stereotypes
     * @param fromClass  which public methods the class's annotation applies to
     * @return the methods, in the order the type gives them
     */
    public static <A extends Annotation> List<Applied<A>> applied(AnnotatedType<?> type, Class<A> annotation,
            BeanManager beans, Predicate<Method> fromClass) {
        A onClass = declared(type.getAnnotations(), annotation, beans);
        List<Applied<A>> applied = new ArrayList<>();
        for (AnnotatedMethod<?> method : type.getMethods()) {
            Method javaMethod = method.getJavaMember();
            int modifiers = javaMethod.getModifiers();
            if (Modifier.isStatic(modifiers) || javaMethod.isSynthetic() || javaMethod.isBridge()) {
                continue;
            }
            A onMethod = method.getAnnotation(annotation);
            if (onMethod != null) {
                applied.add(new Applied<>(method, onMethod, true));
            } else if (onClass != null && Modifier.isPublic(modifiers)
                    && javaMethod.getDeclaringClass() != Object.class && fromClass.test(javaMethod)) {
                applied.add(new Applied<>(method, onClass, false));
            }
        }
        return applied;
    }
}
