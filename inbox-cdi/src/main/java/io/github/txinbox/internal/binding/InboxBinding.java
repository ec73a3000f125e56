package io.github.txinbox.internal.binding;

import io.github.txinbox.Inbox;
import io.github.txinbox.InboxDefinitionException;
import io.github.txinbox.InboxLimits;
import io.github.txinbox.InboxResult;
import io.github.txinbox.MessageIdResolver;
import io.github.txinbox.spi.Demarcation;
import java.lang.annotation.Annotation;
import java.lang.reflect.GenericArrayType;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.Type;
import java.lang.reflect.WildcardType;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;

/**
 * What {@link Inbox @Inbox} means for one method of one bean class, built once at deployment by
 * {@link InboxExtension}: the scope, where the message id comes from, and what the method returns. Building it checks
 * every rule that can be checked without a message, so that misuse fails the deployment.
 *
 * @param description        the bean class and method, as errors and logs name them
 * @param scope              the deduplication scope
 * @param messageId          where the message id comes from, and what its absence says
 * @param returnsInboxResult whether the method returns {@link InboxResult} (else {@code void})
 * @param rethrowRetry       whether a retry throws {@link io.github.txinbox.InboxRetryException} out of the method
 * @param transaction        whose transaction the method runs in, as far as the bean's kind tells
 * @param batch              whether the method takes a batch of Kafka records ({@code List<ConsumerRecord<K, V>>}):
 *                           {@code messageId} then reads each record's id, and the batch is claimed in one statement
 */
record InboxBinding(String description, String scope, MessageIdSource messageId, boolean returnsInboxResult,
        boolean rethrowRetry, Transaction transaction, boolean batch) {

    /**
     * Whose transaction an {@code @Inbox} method runs in. It decides whether a call whose transaction will not commit
     * may return normally: only inside its caller's transaction, whose end the caller's delivery is part of.
     */
    enum Transaction {
        /**
         * Always its caller's: a message-driven bean's method in the container's delivery transaction (the broker
         * sees its rollback), or a session bean's {@code MANDATORY} method.
         */
        CALLERS,
        /**
         * A CDI bean's: {@link TransactionBoundary} (bound to these methods alone) notes, before
         * {@code @Transactional}, which transaction the caller was in, and the call's is its own when the two differ
         * or nothing was noted.
         */
        NOTED,
        /**
         * A session bean's {@code REQUIRED}, {@code REQUIRES_NEW} or {@code SUPPORTS} method: the EJB container
         * begins a transaction before any CDI interceptor runs, so whether it is the caller's cannot be seen, and the
         * call is treated as owning it.
         */
        UNKNOWN
    }

    /**
     * What to do instead of {@code @Inbox} on a bean that runs without a transaction, which is what a message-driven
     * bean does to have its message acknowledged only after the inbox's transaction commits.
     */
    private static final String OWN_TRANSACTION_ADVICE = ". To acknowledge the message only after the inbox's "
            + "transaction commits (the set-up without XA), keep this bean without a transaction and move @Inbox to a "
            + "@Transactional method of a CDI bean that it calls (see docs/without-xa.md)";

    /**
     * Where {@code @Inbox} applies: a method of a bean class, the {@code @Inbox} in effect there (the method's, else
     * the class's, directly or through a stereotype), and the annotations the container sees on the method and the
     * class.
     */
    record Site(Class<?> beanClass, Method method, Inbox inbox, Collection<Annotation> methodAnnotations,
            Collection<Annotation> classAnnotations, Demarcation demarcation) {

        Site(Class<?> beanClass, Method method, Inbox inbox, Collection<Annotation> methodAnnotations,
                Collection<Annotation> classAnnotations) {
            this(beanClass, method, inbox, methodAnnotations, classAnnotations, Demarcation.of(classAnnotations,
                    methodAnnotations, "@Inbox on " + beanClass.getName() + '.' + method.getName()));
        }

        String description() {
            return beanClass.getName() + '.' + method.getName();
        }
    }

    /**
     * Builds the binding of a site.
     *
     * @param site where {@code @Inbox} applies
     * @return the binding
     * @throws InboxDefinitionException when {@code @Inbox} cannot apply there, listing every reason
     */
    static InboxBinding of(Site site) {
        List<String> problems = problems(site);
        if (!problems.isEmpty()) {
            throw new InboxDefinitionException(String.join("; ", problems));
        }
        return ofValid(site);
    }

    /**
     * Builds the binding of a site whose {@link #problems} were found empty.
     *
     * @param site where {@code @Inbox} applies, checked
     * @return the binding
     */
    static InboxBinding ofValid(Site site) {
        Inbox inbox = site.inbox();
        return new InboxBinding(site.description(),
                inbox.scope().isEmpty() ? site.beanClass().getName() : inbox.scope(),
                messageId(site),
                site.method().getReturnType() == InboxResult.class,
                inbox.rethrowRetry(),
                transactionOf(site),
                !usesResolver(inbox) && isBatch(site.method(), messageParameter(site.method())));
    }

    /** Where the site's message id comes from: its resolver, else its Kafka record or JMS message parameter. */
    private static MessageIdSource messageId(Site site) {
        Inbox inbox = site.inbox();
        if (inbox.resolver() != MessageIdResolver.class) {
            return new MessageIdSource.ResolverId(site.description(), inbox.resolver());
        }
        int parameter = messageParameter(site.method());
        return isRecord(site.method(), parameter) || isBatch(site.method(), parameter)
                ? new MessageIdSource.KafkaRecordId(site.description(), parameter, inbox.key())
                : MessageIdSource.JmsMessageId.of(site.description(), parameter, inbox.key());
    }

    /**
     * Whose transaction the site runs in, from the bean's kind and its transaction attribute.
     *
     * @param site where {@code @Inbox} applies
     * @return the kind of transaction its binding names
     */
    static Transaction transactionOf(Site site) {
        Demarcation demarcation = site.demarcation();
        return switch (demarcation.kind()) {
            case MESSAGE_DRIVEN -> Transaction.CALLERS;
            case SESSION -> "MANDATORY".equals(demarcation.attribute()) ? Transaction.CALLERS : Transaction.UNKNOWN;
            case CDI -> Transaction.NOTED;
        };
    }

    /**
     * Lists why {@code @Inbox} cannot apply to a site; empty when it can.
     *
     * @param site where {@code @Inbox} applies
     * @return the problems, each naming the bean and the method
     */
    static List<String> problems(Site site) {
        String where = "@Inbox on " + site.description();
        Inbox inbox = site.inbox();
        Method method = site.method();
        List<String> problems = new ArrayList<>();
        Class<?> returnType = method.getReturnType();
        if (returnType != void.class && returnType != InboxResult.class) {
            problems.add(where + " returns " + returnType.getName()
                    + "; an @Inbox method must return void or InboxResult");
        }
        if (!inbox.scope().isEmpty()) {
            try {
                InboxLimits.requireKey("scope", inbox.scope(), InboxLimits.MAX_SCOPE_BYTES);
            } catch (IllegalArgumentException e) {
                problems.add(where + " has an invalid scope: " + e.getMessage());
            }
        }
        boolean usesResolver = usesResolver(inbox);
        if (usesResolver && !inbox.key().isEmpty()) {
            problems.add(where + " names both a key property ('" + inbox.key() + "') and a resolver ("
                    + inbox.resolver().getName() + "); use one");
        }
        if (usesResolver && (inbox.resolver().isInterface() || Modifier.isAbstract(inbox.resolver().getModifiers()))) {
            problems.add(where + " names the resolver " + inbox.resolver().getName()
                    + ", which is not a concrete class");
        }
        int parameter = usesResolver ? -1 : messageParameter(method);
        boolean batch = isBatch(method, parameter);
        boolean record = isRecord(method, parameter) || batch;
        if (!usesResolver && parameter < 0) {
            problems.add(where + " has no jakarta.jms.Message, Kafka ConsumerRecord or List<ConsumerRecord> parameter "
                    + "to read the message id from; add one, or name a MessageIdResolver in @Inbox(resolver = ...)");
        }
        if (batch && returnType == InboxResult.class) {
            problems.add(where + " takes a batch of Kafka records and returns InboxResult, which speaks for one "
                    + "message; a batch method returns void (a record it does not process it simply leaves alone)");
        }
        boolean kafkaKey = inbox.key().equals(Inbox.KAFKA_RECORD_KEY)
                || inbox.key().equals(Inbox.KAFKA_TOPIC_PARTITION_OFFSET);
        if (record && (inbox.key().isEmpty() || inbox.key().equals(Inbox.JMS_MESSAGE_ID))) {
            problems.add(where + " takes a Kafka " + (batch ? "List<ConsumerRecord>" : "ConsumerRecord")
                    + ", which carries no message id: name the header that "
                    + "holds it in @Inbox(key = ...), or Inbox.KAFKA_RECORD_KEY for the record's key, or "
                    + "Inbox.KAFKA_TOPIC_PARTITION_OFFSET for its place in the topic (docs/kafka.md)");
        }
        if (record && inbox.key().equals(Inbox.KAFKA_RECORD_KEY)) {
            Class<?> keyType = recordKeyType(method, parameter);
            if (keyType != null && keyType != Object.class && !KafkaRecordIds.KEY_TYPES.contains(keyType.getName())) {
                problems.add(where + " reads the id from the record's key, a " + keyType.getName() + ", which has "
                        + "no exact text to be an id; key the records by a String, byte[], ByteBuffer, Bytes, UUID, "
                        + "Long, Integer or Short, or name a header that holds the id in @Inbox(key = ...)");
            }
        }
        if (kafkaKey && parameter >= 0 && !record) {
            problems.add(where + " names the key '" + inbox.key() + "', which only a Kafka ConsumerRecord has, but "
                    + "takes a JMS message");
        }
        Demarcation demarcation = site.demarcation();
        problems.addAll(demarcation.problems());
        if (demarcation.beanManaged()) {
            problems.add(where + ": the bean uses bean-managed transactions; @Inbox needs a container-managed "
                    + "transaction to write its marker in" + OWN_TRANSACTION_ADVICE);
        }
        String attribute = demarcation.attribute();
        if ("NOT_SUPPORTED".equals(attribute) || "NEVER".equals(attribute)) {
            problems.add(where + " runs with @TransactionAttribute(" + attribute
                    + "), without a transaction; @Inbox needs REQUIRED, REQUIRES_NEW or MANDATORY"
                    + OWN_TRANSACTION_ADVICE);
        }
        String transactional = demarcation.transactional();
        if ("NOT_SUPPORTED".equals(transactional) || "NEVER".equals(transactional)) {
            problems.add(where + " runs with @Transactional(" + transactional
                    + "), without a transaction; @Inbox needs REQUIRED, REQUIRES_NEW or MANDATORY");
        }
        return problems;
    }

    private static boolean usesResolver(Inbox inbox) {
        return inbox.resolver() != MessageIdResolver.class;
    }

    /** The first parameter that is a JMS message, a Kafka record or a list of Kafka records, or -1. */
    private static int messageParameter(Method method) {
        Class<?>[] types = method.getParameterTypes();
        for (int i = 0; i < types.length; i++) {
            if (JmsMessageIds.isMessage(types[i]) || KafkaRecordIds.isRecord(types[i]) || isBatch(method, i)) {
                return i;
            }
        }
        return -1;
    }

    /**
     * The element type of a {@code List} parameter: its type argument, or a wildcard's upper bound; {@code null} where
     * the parameter is no {@code List} or names no element type.
     */
    private static Type listElement(Method method, int parameter) {
        if (parameter < 0 || method.getParameterTypes()[parameter] != List.class
                || !(method.getGenericParameterTypes()[parameter] instanceof ParameterizedType list)) {
            return null;
        }
        Type element = list.getActualTypeArguments()[0];
        if (element instanceof WildcardType wildcard && wildcard.getLowerBounds().length == 0) {
            element = wildcard.getUpperBounds()[0];
        }
        return element;
    }

    /** Whether the parameter at that index (-1 for none) is a {@code List} of Kafka records: a batch. */
    private static boolean isBatch(Method method, int parameter) {
        Type element = listElement(method, parameter);
        Type raw = element instanceof ParameterizedType generic ? generic.getRawType() : element;
        return raw instanceof Class<?> type && KafkaRecordIds.isRecord(type);
    }

    /**
     * The key type a {@code ConsumerRecord<K, V>} parameter (or the records of a {@code List<ConsumerRecord<K, V>>})
     * declares, or {@code null} where it names no class.
     */
    private static Class<?> recordKeyType(Method method, int parameter) {
        Type type = isBatch(method, parameter) ? listElement(method, parameter)
                : method.getGenericParameterTypes()[parameter];
        if (type instanceof ParameterizedType generic && generic.getActualTypeArguments().length == 2) {
            Type key = generic.getActualTypeArguments()[0];
            if (key instanceof Class<?> keyClass) {
                return keyClass;
            }
            if (key instanceof ParameterizedType keyGeneric && keyGeneric.getRawType() instanceof Class<?> raw) {
                return raw;
            }
            if (key instanceof GenericArrayType) {
                return Object[].class;
            }
        }
        return null;
    }

    /** Whether the parameter at that index (-1 for none) is a Kafka record. */
    private static boolean isRecord(Method method, int parameter) {
        return parameter >= 0 && KafkaRecordIds.isRecord(method.getParameterTypes()[parameter]);
    }

}
