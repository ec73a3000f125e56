package io.github.txinbox;

import jakarta.enterprise.util.Nonbinding;
import jakarta.interceptor.InterceptorBinding;
import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Processes each message at most once: before the annotated method runs, the inbox claims the message's id in the
 * method's container-managed transaction, and skips the method when the message was processed before.
 *
 * <p>Put it on a message-driven bean's {@code onMessage} (or on the class, directly or through a stereotype), or on any
 * business method that runs in a container-managed transaction. Every use is checked when the application is deployed,
 * and misuse fails the deployment naming the bean and the method. The method must return {@code void} or
 * {@link InboxResult}. By default the message id is the {@code JMSMessageID} of the method's first
 * {@link jakarta.jms.Message} parameter. A method taking a Kafka {@code ConsumerRecord} instead names where the
 * record's id is in {@link #key()}: a header, the record's key, or its topic, partition and offset.
 *
 * <p>A method taking a {@code List<ConsumerRecord<K, V>>} handles a batch (a poll, as SmallRye's connector hands it
 * over with {@code batch=true}): the inbox reads every record's id under {@link #key()}, claims them all in one
 * statement ({@link InboxRepository#claimAll}), and invokes the method once with the records it claimed, in the
 * batch's order and each id once, or not at all when none is new. Such a method returns {@code void}. The batch
 * commits or rolls back as a whole: a record without an id, a claim that fails, or a method that throws rolls back
 * every record of it (each reported {@link InboxOutcome#ROLLED_BACK}, a record without an id
 * {@link InboxOutcome#MISSING_ID}), and the exception leaves the call; hand the records over one by one to a
 * one-record method of the same scope then, so that only the failing one fails (docs/kafka.md shows the consumer).
 *
 * <p>Without XA, run the method in a transaction of its own and acknowledge the message after it commits: a
 * message-driven bean with {@code @TransactionAttribute(NOT_SUPPORTED)} calls a CDI bean whose method carries
 * {@code @Transactional} and {@code @Inbox}. A redelivery after any crash is then processed or recognised, and nothing
 * is ever left prepared.
 *
 * <p>The result rules, applied in the method's transaction. The call's {@link InboxEvent}, its log line and its
 * metrics are reported once that transaction has ended, with what it ended with: a call whose transaction did not
 * commit is never reported as processed, skipped or duplicate.
 * <ul>
 *   <li><b>duplicate</b>: the id was claimed by a committed transaction before. The method is not invoked; the call
 *       returns normally ({@link InboxResult#duplicate()} for a method returning {@code InboxResult}), so the
 *       transaction commits and the delivery is acknowledged.</li>
 *   <li><b>processed</b>: the method returns normally (or returns {@link InboxResult#processed()}): the marker
 *       commits with the method's writes.</li>
 *   <li><b>skipped</b>: the method returns {@link InboxResult#skipped(String)}: the marker commits, so a redelivery
 *       is a duplicate.</li>
 *   <li><b>retry</b>: the method returns {@link InboxResult#retry(String)} or throws {@link InboxRetryException}:
 *       the transaction is marked for rollback, so the method's writes and the marker roll back together. Inside its
 *       caller's transaction (a message-driven bean's {@code onMessage} in the container's transaction, or a
 *       {@code @Transactional} CDI bean that joined its caller's) the call returns normally (or, with
 *       {@link #rethrowRetry()}, throws {@link InboxRetryException}), and the broker redelivers according to its own
 *       redelivery settings. Anywhere else the retry is thrown: the transaction began with this call (a
 *       {@code @Transactional} or a session bean's container-managed transaction began it, because its caller had
 *       none or it is {@code REQUIRES_NEW}) and ends when the call returns, and a caller that returned normally would
 *       have its message acknowledged. A session bean counts as beginning its own transaction unless its method is
 *       {@code MANDATORY}: the EJB container begins it before any interceptor can see the caller's.</li>
 *   <li><b>rolled back</b>: the method returns, but its transaction is marked for rollback (it called
 *       {@code setRollbackOnly()}, or caught the exception of a call that marked it): nothing commits, the marker
 *       included. Inside its caller's transaction the call returns and that transaction rolls back; anywhere else it
 *       throws {@link InboxRolledBackException}, so that the broker delivers the message again.</li>
 *   <li><b>failure</b>: the method throws anything else: the transaction is marked for rollback and the exception is
 *       rethrown unchanged.</li>
 *   <li><b>no id</b>: the message has no id under the configured key: {@link MissingMessageIdException}, and the
 *       transaction is marked for rollback. Nothing is processed without an id.</li>
 *   <li><b>no transaction</b>: {@link NoActiveTransactionException}; where it can be seen at deployment (bean-managed
 *       transactions, {@code NOT_SUPPORTED}, {@code NEVER}), the deployment fails instead.</li>
 * </ul>
 */
@Inherited
@Documented
@InterceptorBinding
@Retention(RetentionPolicy.RUNTIME)
@Target({ElementType.METHOD, ElementType.TYPE})
public @interface Inbox {

    /**
     * The name that, as {@link #key()}, means the {@code JMSMessageID} header: the default, unless the setting
     * {@code txinbox.key} names another property for every {@code @Inbox} without a key.
     */
    String JMS_MESSAGE_ID = "JMSMessageID";

    /**
     * The name that, as {@link #key()} of a method taking a Kafka {@code ConsumerRecord}, means the record's key: a
     * {@code String} as it is; a {@code byte[]}, {@code ByteBuffer} or Kafka {@code Bytes} by its bytes, as UTF-8; a
     * {@code UUID}, {@code Long}, {@code Integer} or {@code Short} by its value. Bytes that are not valid UTF-8 are
     * refused (a missing id), never replaced; a key of another type is refused at deployment where the method's
     * {@code ConsumerRecord<K, V>} names it, else at the record. It fits where the producer keys each message by a business id
     * that is set once per message; a key shared by several messages (a customer id, say) would make all but the
     * first of them duplicates.
     */
    String KAFKA_RECORD_KEY = "kafka:key";

    /**
     * The name that, as {@link #key()} of a method taking a Kafka {@code ConsumerRecord}, means the record's place in
     * its topic: {@code <topic>/<partition>/<offset>}. It needs nothing of the producer and recognises every
     * redelivery of the same record (after a rebalance, a crash before the offset commit, a consumer restart), but
     * not a message the producer sent twice (a retry after a lost acknowledgement without idempotence, an application
     * that sends again): that copy has another offset. Nor does it survive a topic that is deleted and created again.
     */
    String KAFKA_TOPIC_PARTITION_OFFSET = "kafka:topic-partition-offset";

    /**
     * The deduplication scope: the same message id is processed once per scope. Empty (the default) means the bean
     * class's fully qualified name. At most {@value InboxLimits#MAX_SCOPE_BYTES} bytes in UTF-8.
     *
     * @return the scope, or empty for the bean class's name
     */
    @Nonbinding
    String scope() default "";

    /**
     * Where the message id is. For a method taking a JMS message: the name of the message property holding it; empty
     * (the default) means the property named by the setting {@code txinbox.key}, and without that setting the
     * {@code JMSMessageID}; {@link #JMS_MESSAGE_ID} means the {@code JMSMessageID} whatever the setting. For a method
     * taking a Kafka {@code ConsumerRecord}, which carries no id: the name of the record header holding it (its value
     * read as UTF-8), {@link #KAFKA_RECORD_KEY} or {@link #KAFKA_TOPIC_PARTITION_OFFSET}; it must be given.
     *
     * @return the property or header name, one of the constants above, or empty for the configured default
     */
    @Nonbinding
    String key() default "";

    /**
     * A CDI bean that computes the message id from the invocation, for methods whose message is not a JMS message
     * or whose id must be derived. The default, {@code MessageIdResolver.class} itself, means "none": the id comes
     * from the JMS message. Cannot be combined with {@link #key()}.
     *
     * @return the resolver's bean class, or {@code MessageIdResolver.class} for none
     */
    @Nonbinding
    Class<? extends MessageIdResolver> resolver() default MessageIdResolver.class;

    /**
     * How a retry leaves the method. {@code false} (the default): the transaction is marked for rollback and the call
     * returns normally, which suits brokers that space and limit redeliveries of rolled-back messages themselves
     * (ActiveMQ Artemis: {@code redelivery-delay}, {@code max-delivery-attempts}). {@code true}: the transaction is
     * marked for rollback and an {@link InboxRetryException} is thrown out of the method, for resource adapters that
     * space and limit redeliveries only after an exception: OpenMQ redelivers a merely rolled-back message at once and
     * without limit, but honours its {@code endpointExceptionRedeliveryAttempts} and
     * {@code endpointExceptionRedeliveryInterval} activation properties after an exception. The container then logs
     * the exception and, for an EJB, discards the bean instance.
     *
     * @return whether a retry is thrown rather than returned
     */
    @Nonbinding
    boolean rethrowRetry() default false;
}
