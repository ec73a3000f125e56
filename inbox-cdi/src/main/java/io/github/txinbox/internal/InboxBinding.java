package io.github.txinbox.internal;

import io.github.txinbox.Inbox;
import io.github.txinbox.InboxDefinitionException;
import io.github.txinbox.InboxRepository;
import io.github.txinbox.InboxResult;
import io.github.txinbox.MessageIdResolver;
import java.lang.annotation.Annotation;
import java.lang.reflect.AnnotatedElement;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.List;

/**
 * What {@link Inbox @Inbox} means for one method of one bean class, computed once and then cached: the scope, where
 * the message id comes from, and what the method returns. Building it checks every rule that can be checked without
 * a message, so that misuse fails at deployment (see {@link InboxExtension}) or, at the latest, on the first call.
 *
 * @param description       the bean class and method, as errors and logs name them
 * @param scope             the deduplication scope
 * @param key               the JMS property holding the id; empty for {@code JMSMessageID}
 * @param resolver          the resolver's bean class, or {@code null} when the id comes from a JMS message
 * @param messageParameter  the index of the JMS message parameter, or -1 when a resolver is used
 * @param returnsInboxResult whether the method returns {@link InboxResult} (else {@code void})
 * @param rethrowRetry       whether a retry throws {@link io.github.txinbox.InboxRetryException} out of the method
 */
public record InboxBinding(String description, String scope, String key,
        Class<? extends MessageIdResolver> resolver, int messageParameter, boolean returnsInboxResult,
        boolean rethrowRetry) {

    private static final String EJB_TRANSACTION_MANAGEMENT = "jakarta.ejb.TransactionManagement";
    private static final String EJB_TRANSACTION_ATTRIBUTE = "jakarta.ejb.TransactionAttribute";
    private static final String TRANSACTIONAL = "jakarta.transaction.Transactional";

    /**
     * Computes the binding of a method, with the message id in the {@code JMSMessageID} unless {@code @Inbox} names
     * a key.
     *
     * @param beanClass the bean's class (not a proxy's)
     * @param method    the intercepted method
     * @return the binding
     * @throws InboxDefinitionException when {@code @Inbox} cannot apply to the method, listing every reason
     */
    public static InboxBinding of(Class<?> beanClass, Method method) {
        return of(beanClass, method, "");
    }

    /**
     * Computes the binding of a method.
     *
     * @param beanClass  the bean's class (not a proxy's)
     * @param method     the intercepted method
     * @param defaultKey the JMS property holding the id when {@code @Inbox} names no key; empty for
     *                   {@code JMSMessageID}
     * @return the binding
     * @throws InboxDefinitionException when {@code @Inbox} cannot apply to the method, listing every reason
     */
    public static InboxBinding of(Class<?> beanClass, Method method, String defaultKey) {
        List<String> problems = problems(beanClass, method);
        if (!problems.isEmpty()) {
            throw new InboxDefinitionException(String.join("; ", problems));
        }
        Inbox inbox = annotation(beanClass, method);
        Class<? extends MessageIdResolver> resolver =
                inbox.resolver() == MessageIdResolver.class ? null : inbox.resolver();
        return new InboxBinding(describe(beanClass, method),
                inbox.scope().isEmpty() ? beanClass.getName() : inbox.scope(),
                resolver != null ? "" : key(inbox.key(), defaultKey),
                resolver,
                resolver == null ? messageParameter(method) : -1,
                method.getReturnType() == InboxResult.class,
                inbox.rethrowRetry());
    }

    /**
     * Lists why {@code @Inbox} cannot apply to a method of a bean class; empty when it can.
     *
     * @param beanClass the bean's class
     * @param method    a method of that class, annotated or covered by a class-level annotation
     * @return the problems, each naming the bean and the method
     */
    public static List<String> problems(Class<?> beanClass, Method method) {
        String where = "@Inbox on " + describe(beanClass, method);
        Inbox inbox = annotation(beanClass, method);
        List<String> problems = new ArrayList<>();
        if (inbox == null) {
            problems.add(where + ": the method carries no @Inbox");
            return problems;
        }
        Class<?> returnType = method.getReturnType();
        if (returnType != void.class && returnType != InboxResult.class) {
            problems.add(where + " returns " + returnType.getName()
                    + "; an @Inbox method must return void or InboxResult");
        }
        if (!inbox.scope().isEmpty()) {
            try {
                Keys.require("scope", inbox.scope(), InboxRepository.MAX_SCOPE_BYTES);
            } catch (IllegalArgumentException e) {
                problems.add(where + " has an invalid scope: " + e.getMessage());
            }
        }
        boolean usesResolver = inbox.resolver() != MessageIdResolver.class;
        if (usesResolver && !inbox.key().isEmpty()) {
            problems.add(where + " names both a key property ('" + inbox.key() + "') and a resolver ("
                    + inbox.resolver().getName() + "); use one");
        }
        if (usesResolver && (inbox.resolver().isInterface() || Modifier.isAbstract(inbox.resolver().getModifiers()))) {
            problems.add(where + " names the resolver " + inbox.resolver().getName()
                    + ", which is not a concrete class");
        }
        if (!usesResolver && messageParameter(method) < 0) {
            problems.add(where + " has no jakarta.jms.Message parameter to read the message id from; "
                    + "add one, or name a MessageIdResolver in @Inbox(resolver = ...)");
        }
        if ("BEAN".equals(enumValue(beanClass, EJB_TRANSACTION_MANAGEMENT))) {
            problems.add(where + ": the bean uses bean-managed transactions; @Inbox needs a container-managed "
                    + "transaction to write its marker in");
        }
        String attribute = firstNonNull(enumValue(method, EJB_TRANSACTION_ATTRIBUTE),
                enumValue(beanClass, EJB_TRANSACTION_ATTRIBUTE));
        if ("NOT_SUPPORTED".equals(attribute) || "NEVER".equals(attribute)) {
            problems.add(where + " runs with @TransactionAttribute(" + attribute
                    + "), without a transaction; @Inbox needs REQUIRED, REQUIRES_NEW or MANDATORY");
        }
        String transactional = firstNonNull(enumValue(method, TRANSACTIONAL), enumValue(beanClass, TRANSACTIONAL));
        if ("NOT_SUPPORTED".equals(transactional) || "NEVER".equals(transactional)) {
            problems.add(where + " runs with @Transactional(" + transactional
                    + "), without a transaction; @Inbox needs REQUIRED, REQUIRES_NEW or MANDATORY");
        }
        return problems;
    }

    private static String key(String named, String defaultKey) {
        String key = named.isEmpty() ? defaultKey : named;
        return Inbox.JMS_MESSAGE_ID.equals(key) ? "" : key;
    }

    /** The method's annotation, else the class's (which {@code @Inherited} carries down to subclasses). */
    static Inbox annotation(Class<?> beanClass, Method method) {
        Inbox onMethod = method.getAnnotation(Inbox.class);
        return onMethod != null ? onMethod : beanClass.getAnnotation(Inbox.class);
    }

    private static String describe(Class<?> beanClass, Method method) {
        return beanClass.getName() + '.' + method.getName();
    }

    private static int messageParameter(Method method) {
        Class<?>[] types = method.getParameterTypes();
        for (int i = 0; i < types.length; i++) {
            if (JmsMessageIds.isMessage(types[i])) {
                return i;
            }
        }
        return -1;
    }

    /**
     * Reads an annotation's enum {@code value()} by the annotation's name, so that EJB annotations are recognised
     * without a dependency on the EJB API (which the core does not have).
     */
    private static String enumValue(AnnotatedElement element, String annotationName) {
        for (Annotation annotation : element.getAnnotations()) {
            if (annotation.annotationType().getName().equals(annotationName)) {
                try {
                    Object value = annotation.annotationType().getMethod("value").invoke(annotation);
                    return value instanceof Enum<?> constant ? constant.name() : null;
                } catch (ReflectiveOperationException e) {
                    return null;
                }
            }
        }
        return null;
    }

    private static String firstNonNull(String first, String second) {
        return first != null ? first : second;
    }
}
