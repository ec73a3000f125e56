package io.github.txinbox.spi;

import java.lang.annotation.Annotation;
import java.lang.reflect.InvocationTargetException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;

/**
 * Which transaction a bean's method runs in, as its annotations say: the kind of bean, whether it manages its own
 * transactions, its EJB transaction attribute and its {@code @Transactional} type (the method's, else the class's).
 * Read once per method at deployment, by annotation name, so that no EJB or JTA API need be on the class path.
 *
 * @param kind          the kind of bean
 * @param beanManaged   whether the bean has {@code @TransactionManagement(BEAN)}
 * @param attribute     the name of its {@code @TransactionAttribute} type; {@code null} when it has none
 * @param transactional the name of its {@code @Transactional} type; {@code null} when it has none
 * @param problems      the annotations whose value could not be read, each naming the method; empty when none
 */
public record Demarcation(Kind kind, boolean beanManaged, String attribute, String transactional,
        List<String> problems) {

    /** The kinds of bean, as far as transactions go. */
    public enum Kind {
        /** A {@code @MessageDriven} bean: the container begins the transaction and delivers the message in it. */
        MESSAGE_DRIVEN,
        /** A {@code @Stateless}, {@code @Stateful} or {@code @Singleton} session bean. */
        SESSION,
        /** Any other bean: a CDI bean, whose transaction {@code @Transactional} decides. */
        CDI
    }

    private static final String MESSAGE_DRIVEN = "jakarta.ejb.MessageDriven";
    private static final List<String> SESSION_BEANS =
            List.of("jakarta.ejb.Stateless", "jakarta.ejb.Stateful", "jakarta.ejb.Singleton");
    private static final String TRANSACTION_MANAGEMENT = "jakarta.ejb.TransactionManagement";
    private static final String TRANSACTION_ATTRIBUTE = "jakarta.ejb.TransactionAttribute";
    private static final String TRANSACTIONAL = "jakarta.transaction.Transactional";

    /** A copy of the problems. */
    public Demarcation {
        problems = List.copyOf(problems);
    }

    /**
     * Reads a method's demarcation from the annotations the container sees on its class and on it.
     *
     * @param classAnnotations  the bean class's annotations
     * @param methodAnnotations the method's annotations
     * @param where             what the problems name: the binding and the method, such as
     *                          {@code "@Inbox on com.example.Orders.handle"}
     * @return its demarcation
     */
    public static Demarcation of(Collection<Annotation> classAnnotations, Collection<Annotation> methodAnnotations,
            String where) {
        Kind kind = annotation(classAnnotations, MESSAGE_DRIVEN) != null ? Kind.MESSAGE_DRIVEN
                : SESSION_BEANS.stream().anyMatch(name -> annotation(classAnnotations, name) != null) ? Kind.SESSION
                : Kind.CDI;
        List<String> problems = new ArrayList<>();
        boolean beanManaged = "BEAN".equals(enumValue(classAnnotations, TRANSACTION_MANAGEMENT, where, problems));
        String attribute = enumValue(methodAnnotations, TRANSACTION_ATTRIBUTE, where, problems);
        if (attribute == null) {
            attribute = enumValue(classAnnotations, TRANSACTION_ATTRIBUTE, where, problems);
        }
        String transactional = enumValue(methodAnnotations, TRANSACTIONAL, where, problems);
        if (transactional == null) {
            transactional = enumValue(classAnnotations, TRANSACTIONAL, where, problems);
        }
        return new Demarcation(kind, beanManaged, attribute, transactional, problems);
    }

    /** The annotation of that type name among the annotations, or {@code null}; by name, so no API need be present. */
    private static Annotation annotation(Collection<Annotation> annotations, String annotationName) {
        for (Annotation annotation : annotations) {
            if (annotation.annotationType().getName().equals(annotationName)) {
                return annotation;
            }
        }
        return null;
    }

    /** The name of the enum value of an annotation of that type name; {@code null} when absent or not readable. */
    private static String enumValue(Collection<Annotation> annotations, String annotationName, String where,
            List<String> problems) {
        Annotation annotation = annotation(annotations, annotationName);
        if (annotation == null) {
            return null;
        }
        try {
            Object value = annotation.annotationType().getMethod("value").invoke(annotation);
            return value instanceof Enum<?> constant ? constant.name() : null;
        } catch (ReflectiveOperationException | RuntimeException e) {
            Throwable cause = e instanceof InvocationTargetException thrown && thrown.getCause() != null
                    ? thrown.getCause() : e;
            problems.add(where + ": the value of its @" + annotationName + " cannot be read (" + cause
                    + "), so whether it runs in a transaction cannot be checked");
            return null;
        }
    }
}
