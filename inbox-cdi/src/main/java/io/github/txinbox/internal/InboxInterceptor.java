package io.github.txinbox.internal;

import io.github.txinbox.Inbox;
import io.github.txinbox.InboxEvent;
import io.github.txinbox.InboxOutcome;
import io.github.txinbox.InboxRepository;
import io.github.txinbox.InboxResult;
import io.github.txinbox.InboxRetryException;
import io.github.txinbox.InboxSettings;
import io.github.txinbox.MessageIdResolver;
import io.github.txinbox.MissingMessageIdException;
import io.github.txinbox.NoActiveTransactionException;
import jakarta.annotation.Priority;
import jakarta.annotation.Resource;
import jakarta.enterprise.event.Event;
import jakarta.enterprise.inject.Any;
import jakarta.enterprise.inject.Instance;
import jakarta.inject.Inject;
import jakarta.interceptor.AroundInvoke;
import jakarta.interceptor.Interceptor;
import jakarta.interceptor.InvocationContext;
import jakarta.transaction.Status;
import jakarta.transaction.TransactionSynchronizationRegistry;
import java.time.Duration;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Applies the {@link Inbox @Inbox} result rules around a method, in the method's own transaction.
 *
 * <p>Enabled by its {@link Priority} (no beans.xml entry needed), early in the library range
 * ({@code LIBRARY_BEFORE + 100}): after the container has begun the transaction ({@code @Transactional} runs at
 * {@code PLATFORM_BEFORE + 200}), and before the application's own interceptors, so that a duplicate runs none of
 * them.
 */
@Inbox
@Interceptor
@Priority(Interceptor.Priority.LIBRARY_BEFORE + 100)
public class InboxInterceptor {

    /** The inbox's decisions are logged under the name of the annotation, which users know. */
    private static final Logger LOG = Logger.getLogger(Inbox.class.getName());

    @Inject
    private InboxExtension extension;

    @Inject
    private InboxSettings settings;

    @Inject
    private InboxRepository repository;

    @Resource(lookup = "java:comp/TransactionSynchronizationRegistry")
    private TransactionSynchronizationRegistry transactions;

    @Inject
    @Any
    private Instance<MessageIdResolver> resolvers;

    @Inject
    private Event<InboxEvent> events;

    /**
     * Claims the message, then invokes the method or skips it, and settles the transaction's fate by the result.
     *
     * @param invocation the intercepted invocation
     * @return what the method returned; {@link InboxResult#duplicate()} or {@code null} when it was not invoked
     * @throws Exception what the method threw, unchanged, other than {@link InboxRetryException}
     */
    @AroundInvoke
    public Object apply(InvocationContext invocation) throws Exception {
        long start = System.nanoTime();
        InboxBinding binding = extension.binding(invocation.getTarget().getClass(), invocation.getMethod());
        if (binding == null) {
            throw new IllegalStateException("@Inbox intercepted " + invocation.getTarget().getClass().getName()
                    + "." + invocation.getMethod().getName() + ", which it has no binding for: the class was not "
                    + "discovered in a bean archive of this application");
        }

        int status = transactions.getTransactionStatus();
        if (status != Status.STATUS_ACTIVE) {
            throw new NoActiveTransactionException("@Inbox " + binding.description(), status);
        }

        String messageId;
        try {
            messageId = messageId(binding, invocation);
        } catch (MissingMessageIdException e) {
            markRollbackOnly(e);
            notify(binding, null, InboxOutcome.MISSING_ID, e.getMessage(), start);
            throw e;
        } catch (Exception | Error e) {
            // Reading the id failed (a JMSException, a resolver's bug): not a message without an id.
            markRollbackOnly(e);
            notify(binding, null, InboxOutcome.FAILURE, failure(e), start);
            throw e;
        }
        boolean claimed;
        try {
            claimed = repository.claim(binding.scope(), messageId);
        } catch (RuntimeException e) {
            markRollbackOnly(e);
            String state = SqlStates.of(e);
            if (SqlStates.LOCK_NOT_AVAILABLE.equals(state)) {
                // Another transaction held the marker past the bound: a copy still running, or a transaction left
                // prepared by a crash. Its end decides; until then this delivery rolls back and comes again.
                String reason = "another transaction held the marker for longer than " + settings.claimMaxWait()
                        + " (" + InboxSettings.CLAIM_MAX_WAIT + "): a copy still being processed, or a transaction "
                        + "prepared and in doubt (see pg_prepared_xacts)";
                LOG.warning(() -> "Held: " + messageId + " in scope " + binding.scope() + " for "
                        + binding.description() + ": " + reason + "; the transaction rolls back and the broker "
                        + "redelivers");
                return retry(binding, invocation, messageId, InboxOutcome.HELD, new InboxRetryException(reason, e),
                        start);
            }
            if (!SqlStates.isTransactionConflict(e)) {
                notify(binding, messageId, InboxOutcome.FAILURE, failure(e), start);
                throw e;
            }
            // Under REPEATABLE READ or SERIALIZABLE, a concurrent transaction committed this marker after our
            // snapshot (or a deadlock was broken), and PostgreSQL aborted the transaction. The next delivery sees
            // the committed marker: a retry, not a failure.
            String reason = "the claim conflicted with a concurrent transaction (SQLSTATE " + state + ")";
            return retry(binding, invocation, messageId, InboxOutcome.RETRY, new InboxRetryException(reason, e),
                    start);
        }
        if (!claimed) {
            LOG.fine(() -> "Duplicate " + messageId + " in scope " + binding.scope() + ": "
                    + binding.description() + " not invoked");
            notify(binding, messageId, InboxOutcome.DUPLICATE, null, start);
            return binding.returnsInboxResult() ? InboxResult.duplicate() : null;
        }

        Object result;
        try {
            result = invocation.proceed();
        } catch (InboxRetryException e) {
            return retry(binding, invocation, messageId, InboxOutcome.RETRY, e, start);
        } catch (Exception | Error e) {
            markRollbackOnly(e);
            notify(binding, messageId, InboxOutcome.FAILURE, failure(e), start);
            throw e;
        }

        InboxResult outcome = result instanceof InboxResult r ? r : InboxResult.processed();
        switch (outcome.outcome()) {
            case RETRY -> {
                return retry(binding, invocation, messageId, InboxOutcome.RETRY,
                        new InboxRetryException(outcome.reason()), start);
            }
            case SKIPPED -> {
                LOG.info(() -> "Skipped " + messageId + " in scope " + binding.scope() + " by "
                        + binding.description() + ": " + outcome.reason());
                notify(binding, messageId, InboxOutcome.SKIPPED, outcome.reason(), start);
            }
            default -> {
                LOG.fine(() -> "Processed " + messageId + " in scope " + binding.scope() + " by "
                        + binding.description());
                notify(binding, messageId, InboxOutcome.PROCESSED, null, start);
            }
        }
        return result;
    }

    private String messageId(InboxBinding binding, InvocationContext invocation) throws Exception {
        String id;
        String source;
        if (binding.resolver() != null) {
            try (Instance.Handle<? extends MessageIdResolver> resolver =
                    resolvers.select(binding.resolver()).getHandle()) {
                id = resolver.get().messageId(invocation);
            }
            source = "the resolver " + binding.resolver().getName() + " returned none";
        } else {
            Object message = invocation.getParameters()[binding.messageParameter()];
            if (message == null) {
                id = null;
                source = "the message parameter is null";
            } else {
                String key = binding.keyGiven(settings.defaultKey());
                id = JmsMessageIds.read(message, key);
                source = key.isEmpty()
                        ? "the message has no JMSMessageID"
                        : "the JMS property '" + key + "' is missing or blank";
            }
        }
        if (id == null || id.isBlank()) {
            throw new MissingMessageIdException("@Inbox " + binding.description() + " cannot process a message "
                    + "without an id: " + source + ". The transaction is rolled back, so the broker redelivers "
                    + "the message and, after its attempts, moves it to its dead-letter queue");
        }
        return id;
    }

    /**
     * Applies the retry rule to a {@link InboxOutcome#RETRY} or a {@link InboxOutcome#HELD}: marks the transaction for
     * rollback, logs a handler's or a conflict's reason (a held marker is logged where it is found), then throws the
     * retry (with {@code rethrowRetry}, or in a transaction of the call's own) or returns normally.
     */
    private Object retry(InboxBinding binding, InvocationContext invocation, String messageId, InboxOutcome outcome,
            InboxRetryException retry, long start) {
        markRollbackOnly(retry);
        String reason = retry.getMessage() == null ? "no reason given" : retry.getMessage();
        if (outcome == InboxOutcome.RETRY) {
            LOG.info(() -> "Retry of " + messageId + " in scope " + binding.scope() + " for "
                    + binding.description() + ": " + reason + "; the transaction rolls back and the broker redelivers");
        }
        notify(binding, messageId, outcome, reason, start);
        // A retry must leave by an exception when this call's transaction ends as the call returns: its caller
        // acknowledges the message on a normal return.
        if (binding.rethrowRetry()
                || TransactionBoundary.ownTransaction(invocation.getContextData(), transactions.getTransactionKey())) {
            throw retry;
        }
        return binding.returnsInboxResult() ? InboxResult.retry(reason) : null;
    }

    /**
     * Fires the call's {@link InboxEvent} to the application's synchronous observers. An observer's exception must
     * not turn the inbox's decision into another, so it is logged and dropped.
     */
    private void notify(InboxBinding binding, String messageId, InboxOutcome outcome, String reason,
            long start) {
        InboxEvent event = new InboxEvent(binding.scope(), messageId, outcome, reason,
                Duration.ofNanos(Math.max(0, System.nanoTime() - start)), binding.description());
        try {
            events.fire(event);
        } catch (RuntimeException e) {
            LOG.log(Level.WARNING, e, () -> "An observer of " + event + " failed; the inbox's decision stands");
        }
    }

    private static String failure(Throwable e) {
        return e.getMessage() == null ? e.getClass().getName() : e.getClass().getName() + ": " + e.getMessage();
    }

    private void markRollbackOnly(Throwable cause) {
        try {
            transactions.setRollbackOnly();
        } catch (IllegalStateException e) {
            // The transaction already ended (a timeout rolled it back): nothing left to mark.
            cause.addSuppressed(e);
        }
    }
}
