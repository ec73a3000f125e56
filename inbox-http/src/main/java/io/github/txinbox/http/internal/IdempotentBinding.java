package io.github.txinbox.http.internal;

import io.github.txinbox.Inbox;
import io.github.txinbox.InboxLimits;
import io.github.txinbox.http.Idempotent;
import io.github.txinbox.spi.Demarcation;
import java.lang.annotation.Annotation;
import java.lang.reflect.Method;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Binds {@link io.github.txinbox.http.Idempotent @Idempotent} to one resource method of one bean class, once at deployment for
 * {@link InboxExtension}: checks every rule that can be checked without a request, so that misuse fails the
 * deployment, and builds the method's {@link KeyRules}. Names no Jakarta REST type, so that it loads where the server
 * has none.
 */
final class IdempotentBinding {

    private static final String RESPONSE = "jakarta.ws.rs.core.Response";
    private static final String HTTP_METHOD = "jakarta.ws.rs.HttpMethod";
    /** The methods a key is pointless for: they change nothing. */
    private static final Set<String> SAFE = Set.of("GET", "HEAD", "OPTIONS");
    private static final Pattern FIELD_NAME = Pattern.compile("[!#$%&'*+\\-.^_`|~0-9A-Za-z]+");

    /**
     * Where {@code @Idempotent} applies: a method of a bean class, the {@code @Idempotent} in effect there, whether it
     * is the method's own, and the annotations the container sees on the method and the class.
     */
    record Site(Class<?> beanClass, Method method, Idempotent idempotent, boolean onMethod,
            Collection<Annotation> methodAnnotations, Collection<Annotation> classAnnotations) {

        String description() {
            return beanClass.getName() + '.' + method.getName();
        }
    }

    private IdempotentBinding() {
    }

    /**
     * Whether a class's {@code @Idempotent} applies to a method: one that handles an HTTP method that changes
     * something. A method's own annotation always applies, and is checked.
     *
     * @param method a public method of a class that carries {@code @Idempotent}
     * @return whether it is such a resource method
     */
    static boolean appliesFromClass(Method method) {
        String designator = designator(method);
        return designator != null && !SAFE.contains(designator);
    }

    /**
     * Builds the binding of a site whose {@link #problems} were found empty.
     *
     * @param site where {@code @Idempotent} applies, checked
     * @return the method's rules
     */
    static KeyRules ofValid(Site site) {
        Idempotent idempotent = site.idempotent();
        return new KeyRules(site.description(),
                idempotent.scope().isEmpty() ? site.beanClass().getName() : idempotent.scope(),
                idempotent.header(), idempotent.required(), idempotent.perPrincipal());
    }

    /**
     * Lists why {@code @Idempotent} cannot apply to a site; empty when it can.
     *
     * @param site where {@code @Idempotent} applies
     * @return the problems, each naming the bean and the method
     */
    static List<String> problems(Site site) {
        String where = "@Idempotent on " + site.description();
        Idempotent idempotent = site.idempotent();
        Method method = site.method();
        List<String> problems = new ArrayList<>();
        if (!method.getReturnType().getName().equals(RESPONSE)) {
            problems.add(where + " returns " + method.getReturnType().getName() + "; an @Idempotent method returns "
                    + RESPONSE + ", so that a retry can be answered with the stored status and headers");
        }
        String designator = designator(method);
        if (designator == null) {
            problems.add(where + ": the method is not a Jakarta REST resource method (no @POST, @PUT, @PATCH, "
                    + "@DELETE or other HTTP method annotation)");
        } else if (SAFE.contains(designator)) {
            problems.add(where + ": the method handles " + designator + ", which changes nothing and needs no key");
        }
        if (!FIELD_NAME.matcher(idempotent.header()).matches()) {
            problems.add(where + " names the header '" + idempotent.header() + "', which is not an HTTP field name");
        }
        if (!idempotent.scope().isEmpty()) {
            try {
                InboxLimits.requireKey("scope", idempotent.scope(), InboxLimits.MAX_SCOPE_BYTES);
            } catch (IllegalArgumentException e) {
                problems.add(where + " has an invalid scope: " + e.getMessage());
            }
        }
        if (idempotent.perPrincipal()) {
            String scope = idempotent.scope().isEmpty() ? site.beanClass().getName() : idempotent.scope();
            int room = InboxLimits.MAX_SCOPE_BYTES - Idempotent.PRINCIPAL_SUFFIX_LENGTH;
            if (scope.getBytes(StandardCharsets.UTF_8).length > room) {
                problems.add(where + " keeps keys per caller, whose scope is the scope and "
                        + Idempotent.PRINCIPAL_SUFFIX_LENGTH + " bytes more; its scope '" + scope + "' is longer than "
                        + "the " + room + " bytes that leaves: name a shorter scope");
            }
        }
        if (site.methodAnnotations().stream().anyMatch(Inbox.class::isInstance)
                || site.classAnnotations().stream().anyMatch(Inbox.class::isInstance)) {
            problems.add(where + " is also @Inbox; a method takes its id from a message or from a request, not both");
        }
        transactionProblem(site, where, problems);
        return problems;
    }

    /** Adds why the method would not run in a transaction of its own, if it would not. */
    private static void transactionProblem(Site site, String where, List<String> problems) {
        Demarcation demarcation = Demarcation.of(site.classAnnotations(), site.methodAnnotations(), where);
        problems.addAll(demarcation.problems());
        if (demarcation.kind() == Demarcation.Kind.MESSAGE_DRIVEN) {
            problems.add(where + ": a message-driven bean is no resource; use @Inbox there");
            return;
        }
        String transactional = demarcation.transactional();
        if (demarcation.kind() == Demarcation.Kind.SESSION) {
            if (demarcation.beanManaged()) {
                problems.add(where + ": the bean uses bean-managed transactions; @Idempotent needs a "
                        + "container-managed transaction to write its marker and the response in");
                return;
            }
            String attribute = demarcation.attribute();
            if (attribute != null && !"REQUIRED".equals(attribute) && !"REQUIRES_NEW".equals(attribute)) {
                problems.add(where + " runs with @TransactionAttribute(" + attribute + "); @Idempotent needs "
                        + "REQUIRED (the default) or REQUIRES_NEW, a transaction that begins and ends with the "
                        + "request");
            }
            return;
        }
        if (transactional == null) {
            problems.add(where + " runs without a transaction: a resource method is called with none. Add "
                    + "@Transactional, so that the marker, the method's writes and the response commit together");
        } else if (!"REQUIRED".equals(transactional) && !"REQUIRES_NEW".equals(transactional)) {
            problems.add(where + " runs with @Transactional(" + transactional + "); @Idempotent needs REQUIRED (the "
                    + "default) or REQUIRES_NEW, a transaction that begins and ends with the request");
        }
    }

    /**
     * The HTTP method a resource method handles: the value of its annotation that carries {@code @HttpMethod}, on the
     * method or, where the method has none of Jakarta REST's annotations, on the method it implements or overrides
     * (Jakarta REST's annotation inheritance); {@code null} when there is none.
     */
    private static String designator(Method method) {
        List<Method> candidates = new ArrayList<>();
        candidates.add(method);
        for (Class<?> c = method.getDeclaringClass(); c != null && c != Object.class; c = c.getSuperclass()) {
            addDeclared(c, method, candidates);
            for (Class<?> implemented : c.getInterfaces()) {
                addDeclared(implemented, method, candidates);
            }
        }
        for (Method candidate : candidates) {
            for (Annotation annotation : candidate.getAnnotations()) {
                for (Annotation meta : annotation.annotationType().getAnnotations()) {
                    if (meta.annotationType().getName().equals(HTTP_METHOD)) {
                        try {
                            return (String) meta.annotationType().getMethod("value").invoke(meta);
                        } catch (ReflectiveOperationException e) {
                            return annotation.annotationType().getSimpleName();
                        }
                    }
                }
            }
        }
        return null;
    }

    private static void addDeclared(Class<?> type, Method method, List<Method> candidates) {
        for (Method declared : type.getDeclaredMethods()) {
            if (declared.getName().equals(method.getName())
                    && Arrays.equals(declared.getParameterTypes(), method.getParameterTypes())
                    && !candidates.contains(declared)) {
                candidates.add(declared);
            }
        }
    }
}
