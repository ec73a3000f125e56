package io.github.txinbox.internal.binding;

import static io.github.txinbox.spi.CallCompletion.failure;

import io.github.txinbox.Inbox;
import io.github.txinbox.InboxConflictException;
import io.github.txinbox.InboxEvent;
import io.github.txinbox.InboxLimits;
import io.github.txinbox.InboxMarkerHeldException;
import io.github.txinbox.InboxOutcome;
import io.github.txinbox.InboxRepository;
import io.github.txinbox.InboxResult;
import io.github.txinbox.InboxRetryException;
import io.github.txinbox.InboxRolledBackException;
import io.github.txinbox.InboxSettings;
import io.github.txinbox.MissingMessageIdException;
import io.github.txinbox.NoActiveTransactionException;
import io.github.txinbox.spi.CallCompletion;
import jakarta.annotation.Priority;
import jakarta.enterprise.event.Event;
import jakarta.enterprise.inject.spi.BeanManager;
import jakarta.inject.Inject;
import jakarta.interceptor.AroundInvoke;
import jakarta.interceptor.Interceptor;
import jakarta.interceptor.InvocationContext;
import jakarta.transaction.Status;
import jakarta.transaction.TransactionSynchronizationRegistry;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.logging.Logger;

/**
 * Applies the {@link Inbox @Inbox} result rules around a method, in the method's transaction, and reports each call
 * (log, event, metrics) once that transaction has ended, as what it ended with.
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

    private InboxExtension extension;

    @Inject
    private InboxSettings settings;

    @Inject
    private InboxRepository repository;

    private TransactionSynchronizationRegistry transactions;

    @Inject
    private BeanManager beans;

    @Inject
    private Event<InboxEvent> events;

    /** For the container, which injects the rest. */
    public InboxInterceptor() {
    }

    /**
     * The interceptor with what the container would inject given, for the result rules' unit tests, which call
     * {@link #intercept} with a binding of their own. Without a bean manager: its methods read their ids from their
     * parameters, not through a resolver.
     */
    InboxInterceptor(InboxSettings settings, InboxRepository repository, TransactionSynchronizationRegistry transactions,
            Event<InboxEvent> events) {
        this.settings = settings;
        this.repository = repository;
        this.transactions = transactions;
        this.events = events;
    }

    @Inject
    void init(InboxExtension extension) {
        this.extension = extension;
        this.transactions = extension.transactions();
    }

    /**
     * Decides what becomes of the call (claim, then invoke the method or not, then read its result), applies that
     * decision to the call, and reports it once the transaction has ended.
     *
     * @param invocation the intercepted invocation
     * @return what the method returned; {@link InboxResult#duplicate()} or {@code null} when it was not invoked
     * @throws Exception what the method threw, unchanged, other than {@link InboxRetryException};
     *                   {@link InboxRolledBackException} when the method returned but its own transaction will not
     *                   commit
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
        return intercept(binding, invocation, start);
    }

    /** {@link #apply} once the call's binding is found; {@code start} is when the call entered. */
    Object intercept(InboxBinding binding, InvocationContext invocation, long start) throws Exception {
        int status = transactions.getTransactionStatus();
        if (status != Status.STATUS_ACTIVE) {
            throw new NoActiveTransactionException("@Inbox " + binding.description(), status);
        }
        CallCompletion<Decided> completion = new CallCompletion<>(
                (decided, ended) -> report(binding, decided, ended, start));
        // Registered while the transaction is active; its end, not the method's return, is what gets reported.
        transactions.registerInterposedSynchronization(completion);
        Decision decision = binding.batch() ? decideBatch(binding, invocation) : decide(binding, invocation);
        return settle(binding, invocation, decision, completion);
    }

    /**
     * What the inbox decided for one call. {@code thrown} is what leaves the call by an exception: always for a
     * {@link InboxOutcome#FAILURE} or a {@link InboxOutcome#MISSING_ID}, and for a retry or a held marker unless the
     * call may return {@code returned} instead. A decision with something to throw rolls the transaction back.
     *
     * <p>A batch's decision names the batch in {@code messageId} and holds one decision per record in
     * {@code records}, which are what its events report; a decision of one message reports itself.
     */
    private record Decision(InboxOutcome outcome, String messageId, String reason, Object returned,
            Throwable thrown, List<Decision> records) {

        Decision(InboxOutcome outcome, String messageId, String reason, Object returned, Throwable thrown) {
            this(outcome, messageId, reason, returned, thrown, null);
        }

        /** The decisions reported one event each: the batch's records', or this one. */
        List<Decision> reported() {
            return records == null ? List.of(this) : records;
        }

        Decision of(List<Decision> batchRecords) {
            return new Decision(outcome, messageId, reason, returned, thrown, List.copyOf(batchRecords));
        }

        static Decision ran(InboxOutcome outcome, String messageId, String reason, Object returned) {
            return new Decision(outcome, messageId, reason, returned, null);
        }

        static Decision failed(InboxOutcome outcome, String messageId, String reason, Throwable thrown) {
            return new Decision(outcome, messageId, reason, null, thrown);
        }

        static Decision retry(InboxBinding binding, InboxOutcome outcome, String messageId,
                InboxRetryException retry) {
            String reason = retry.getMessage() == null ? "no reason given" : retry.getMessage();
            return new Decision(outcome, messageId, reason,
                    binding.returnsInboxResult() ? InboxResult.retry(reason) : null, retry);
        }
    }

    /** A decision applied to its call: whether the method left the transaction marked for rollback as it returned. */
    private record Decided(Decision decision, boolean markedByMethod) {
    }

    /** Claims the message, invokes the method when the claim is new, and reads what it returned; no side effect. */
    private Decision decide(InboxBinding binding, InvocationContext invocation) {
        String messageId;
        try {
            messageId = binding.messageId().read(invocation, settings, beans);
        } catch (MissingMessageIdException e) {
            return Decision.failed(InboxOutcome.MISSING_ID, null, e.getMessage(), e);
        } catch (Exception | Error e) {
            // Reading the id failed (a JMSException, a resolver's bug): not a message without an id.
            return Decision.failed(InboxOutcome.FAILURE, null, failure(e), e);
        }
        boolean claimed;
        try {
            claimed = repository.claim(binding.scope(), messageId);
        } catch (InboxMarkerHeldException e) {
            // Another transaction held the marker past the bound: a copy still running, or a transaction left
            // prepared by a crash. Its end decides; until then this delivery rolls back and comes again.
            return Decision.retry(binding, InboxOutcome.HELD, messageId, new InboxRetryException(e.getMessage(), e));
        } catch (InboxConflictException e) {
            // The next delivery sees the committed marker (or the deadlock is gone): a retry, not a failure.
            return Decision.retry(binding, InboxOutcome.RETRY, messageId, new InboxRetryException(e.getMessage(), e));
        } catch (RuntimeException e) {
            return Decision.failed(InboxOutcome.FAILURE, messageId, failure(e), e);
        }
        if (!claimed) {
            return Decision.ran(InboxOutcome.DUPLICATE, messageId, null,
                    binding.returnsInboxResult() ? InboxResult.duplicate() : null);
        }
        Object returned;
        try {
            returned = invocation.proceed();
        } catch (InboxRetryException e) {
            return Decision.retry(binding, InboxOutcome.RETRY, messageId, e);
        } catch (Exception | Error e) {
            return Decision.failed(InboxOutcome.FAILURE, messageId, failure(e), e);
        }
        InboxResult result = returned instanceof InboxResult r ? r : InboxResult.processed();
        return switch (result.outcome()) {
            case PROCESSED -> Decision.ran(InboxOutcome.PROCESSED, messageId, null, returned);
            case SKIPPED -> Decision.ran(InboxOutcome.SKIPPED, messageId, result.reason(), returned);
            case RETRY -> Decision.retry(binding, InboxOutcome.RETRY, messageId,
                    new InboxRetryException(result.reason()));
            default -> {
                // Only the inbox knows that a message is a duplicate: a method that says so has not processed it,
                // and committing its marker would hide the message for good.
                IllegalStateException refused = new IllegalStateException("@Inbox " + binding.description()
                        + " returned " + result + ", which only the inbox returns; a method returns "
                        + "InboxResult.processed(), skipped(reason) or retry(reason). The transaction is rolled "
                        + "back");
                yield Decision.failed(InboxOutcome.FAILURE, messageId, failure(refused), refused);
            }
        };
    }

    /**
     * Decides for a batch of Kafka records, in one transaction: reads every record's id, claims them all in one
     * statement, and invokes the method once with the records claimed (each id once, in the batch's order), unless
     * none was. The batch commits or rolls back as a whole: a record without an id, a claim that fails, or a method
     * that throws rolls back every record of it, and the caller hands them over again (one by one, to isolate the
     * failing one). No side effect.
     */
    private Decision decideBatch(InboxBinding binding, InvocationContext invocation) {
        MessageIdSource.KafkaRecordId source = (MessageIdSource.KafkaRecordId) binding.messageId();
        Object[] parameters = invocation.getParameters();
        List<?> batch = (List<?>) parameters[source.parameter()];
        if (batch == null) {
            MissingMessageIdException missing = source.nullBatch();
            return Decision.failed(InboxOutcome.MISSING_ID, null, missing.getMessage(), missing);
        }
        int size = batch.size();
        String described = "a batch of " + size + " records";
        List<String> ids = new ArrayList<>(size);
        Throwable unread = null;
        InboxOutcome unreadOutcome = null;
        for (int i = 0; i < size; i++) {
            String id = null;
            try {
                id = source.readBatchRecord(batch.get(i), i, size);
            } catch (MissingMessageIdException e) {
                if (unread == null) {
                    unread = e;
                    unreadOutcome = InboxOutcome.MISSING_ID;
                }
            } catch (RuntimeException | Error e) {
                if (unread == null) {
                    unread = e;
                    unreadOutcome = InboxOutcome.FAILURE;
                }
            }
            ids.add(id);
        }
        if (unread != null) {
            String reason = unreadOutcome == InboxOutcome.MISSING_ID ? unread.getMessage() : failure(unread);
            Decision failed = Decision.failed(unreadOutcome, described, reason, unread);
            List<Decision> records = new ArrayList<>(size);
            for (String id : ids) {
                records.add(id == null ? Decision.failed(unreadOutcome, null, reason, unread)
                        : rolledBackWithBatch(id, failed));
            }
            return failed.of(records);
        }
        Set<String> claimed;
        try {
            claimed = claimBatch(binding.scope(), ids);
        } catch (InboxMarkerHeldException e) {
            return rolledBack(ids, Decision.retry(binding, InboxOutcome.HELD, described,
                    new InboxRetryException(e.getMessage(), e)));
        } catch (InboxConflictException e) {
            return rolledBack(ids, Decision.retry(binding, InboxOutcome.RETRY, described,
                    new InboxRetryException(e.getMessage(), e)));
        } catch (RuntimeException e) {
            return rolledBack(ids, Decision.failed(InboxOutcome.FAILURE, described, failure(e), e));
        }
        // Each claimed id is new at its first record; every other record is a duplicate, if the batch commits.
        List<Object> fresh = new ArrayList<>(claimed.size());
        List<Decision> records = new ArrayList<>(size);
        Set<String> taken = new HashSet<>();
        for (int i = 0; i < size; i++) {
            String id = ids.get(i);
            boolean isNew = claimed.contains(id) && taken.add(id);
            if (isNew) {
                fresh.add(batch.get(i));
            }
            records.add(Decision.ran(isNew ? InboxOutcome.PROCESSED : InboxOutcome.DUPLICATE, id, null, null));
        }
        described = described + " (" + fresh.size() + " new)";
        if (fresh.isEmpty()) {
            return Decision.ran(InboxOutcome.DUPLICATE, described, null, null).of(records);
        }
        if (fresh.size() < size) {
            Object[] claimedOnly = parameters.clone();
            claimedOnly[source.parameter()] = Collections.unmodifiableList(fresh);
            invocation.setParameters(claimedOnly);
        }
        try {
            invocation.proceed();
        } catch (InboxRetryException e) {
            return rolledBack(ids, Decision.retry(binding, InboxOutcome.RETRY, described, e));
        } catch (Exception | Error e) {
            return rolledBack(ids, Decision.failed(InboxOutcome.FAILURE, described, failure(e), e));
        }
        return Decision.ran(InboxOutcome.PROCESSED, described, null, null).of(records);
    }

    /**
     * Claims a batch's ids: in one statement up to {@link InboxLimits#MAX_CLAIM_IDS} distinct ids, else in several
     * of the sorted ids, so that the markers are still taken in one order.
     */
    private Set<String> claimBatch(String scope, List<String> ids) {
        Set<String> distinct = new LinkedHashSet<>(ids);
        if (distinct.size() <= InboxLimits.MAX_CLAIM_IDS) {
            return repository.claimAll(scope, distinct);
        }
        List<String> sorted = new ArrayList<>(distinct);
        Collections.sort(sorted);
        Set<String> claimed = new HashSet<>();
        for (int from = 0; from < sorted.size(); from += InboxLimits.MAX_CLAIM_IDS) {
            claimed.addAll(repository.claimAll(scope,
                    sorted.subList(from, Math.min(sorted.size(), from + InboxLimits.MAX_CLAIM_IDS))));
        }
        return claimed;
    }

    /**
     * A batch that rolls back as a whole, its claim or its method having failed: which record was the cause is not
     * known, so each is reported {@link InboxOutcome#ROLLED_BACK} with the batch's outcome and reason.
     */
    private static Decision rolledBack(List<String> ids, Decision batch) {
        return batch.of(ids.stream().map(id -> rolledBackWithBatch(id, batch)).toList());
    }

    /** A record rolled back with its batch, which the batch's decision says why. */
    private static Decision rolledBackWithBatch(String id, Decision batch) {
        return new Decision(InboxOutcome.ROLLED_BACK, id, "rolled back with its batch (" + batch.outcome() + "): "
                + batch.reason(), null, batch.thrown());
    }

    /**
     * Applies a decision to the call: marks the transaction for rollback when the decision throws, then returns or
     * throws. A call whose transaction will not commit (the decision rolls it back, or the method left it marked for
     * rollback) returns normally only inside its caller's transaction, whose end the caller's delivery is part of, and
     * only for a retry (unless {@code rethrowRetry}) or a method that returned; anywhere else its transaction ends as
     * the call returns, and the caller would acknowledge a message whose work rolled back.
     */
    private Object settle(InboxBinding binding, InvocationContext invocation, Decision decision,
            CallCompletion<Decided> completion) throws Exception {
        Throwable thrown = decision.thrown();
        if (thrown != null) {
            markRollbackOnly(thrown);
        }
        boolean markedByMethod = thrown == null && transactions.getTransactionStatus() != Status.STATUS_ACTIVE;
        completion.decided(new Decided(decision, markedByMethod));
        if (thrown == null && !markedByMethod) {
            return decision.returned();
        }
        boolean callers = switch (binding.transaction()) {
            case CALLERS -> true;
            case NOTED -> TransactionBoundary.callersTransaction(invocation.getContextData(),
                    transactions.getTransactionKey());
            case UNKNOWN -> false;
        };
        if (thrown == null) {
            if (callers) {
                return decision.returned();
            }
            throw new InboxRolledBackException("@Inbox " + binding.description() + " returned " + decision.outcome()
                    + " for " + decision.messageId() + " in scope " + binding.scope() + ", but its transaction is "
                    + "marked for rollback (by the method, or by a call it made that failed), so nothing it did "
                    + "commits, the marker included. The transaction is not known to be its caller's, so the call "
                    + "throws instead of returning, and the broker delivers the message again");
        }
        if (thrown instanceof InboxRetryException && !binding.rethrowRetry() && callers) {
            return decision.returned();
        }
        if (thrown instanceof Error error) {
            throw error;
        }
        throw (Exception) thrown;
    }

    /**
     * Reports a call once its transaction has ended: the outcome that ended (a decision to commit whose transaction
     * rolled back is {@link InboxOutcome#ROLLED_BACK}), logged and fired as an {@link InboxEvent}.
     */
    private void report(InboxBinding binding, Decided decided, int status, long start) {
        log(binding, ended(decided.decision(), decided.markedByMethod(), status));
        for (Decision message : decided.decision().reported()) {
            notify(binding, ended(message, decided.markedByMethod(), status), start);
        }
    }

    /** What a decision ended with: itself, or {@link InboxOutcome#ROLLED_BACK} where it meant to commit and did not. */
    private static Decision ended(Decision decision, boolean markedByMethod, int status) {
        if (decision.thrown() != null || status == Status.STATUS_COMMITTED) {
            return decision;
        }
        String reason = markedByMethod
                ? decision.outcome() + " decided, but the method returned with its transaction marked for rollback"
                : CallCompletion.notCommitted(decision.outcome(), status);
        return new Decision(InboxOutcome.ROLLED_BACK, decision.messageId(), reason, null, null);
    }

    /**
     * Logs an ended call under its outcome; a failure or a missing id is not logged here, since its exception left
     * the call for the container to log.
     */
    private static void log(InboxBinding binding, Decision decision) {
        String id = decision.messageId();
        switch (decision.outcome()) {
            case PROCESSED -> LOG.fine(() -> "Processed " + id + " in scope " + binding.scope() + " by "
                    + binding.description());
            case DUPLICATE -> LOG.fine(() -> "Duplicate " + id + " in scope " + binding.scope() + ": "
                    + binding.description() + " not invoked");
            case SKIPPED -> LOG.info(() -> "Skipped " + id + " in scope " + binding.scope() + " by "
                    + binding.description() + ": " + decision.reason());
            case RETRY -> LOG.info(() -> "Retry of " + id + " in scope " + binding.scope() + " for "
                    + binding.description() + ": " + decision.reason()
                    + "; the transaction rolled back and the broker redelivers");
            case HELD -> LOG.warning(() -> "Held: " + id + " in scope " + binding.scope() + " for "
                    + binding.description() + ": " + decision.reason()
                    + "; the transaction rolled back and the broker redelivers");
            case ROLLED_BACK -> LOG.warning(() -> "Rolled back: " + id + " in scope " + binding.scope() + " for "
                    + binding.description() + ": " + decision.reason() + "; the broker redelivers");
            default -> {
                // FAILURE, MISSING_ID: the exception speaks.
            }
        }
    }

    /**
     * Fires the call's {@link InboxEvent} to the application's synchronous observers, after the transaction ended.
     * An observer's exception cannot change what the transaction ended with, so it is logged and dropped.
     */
    private void notify(InboxBinding binding, Decision decision, long start) {
        InboxEvent event = new InboxEvent(binding.scope(), decision.messageId(), decision.outcome(), decision.reason(),
                Duration.ofNanos(Math.max(0, System.nanoTime() - start)), binding.description());
        CallCompletion.fire(events, event, LOG);
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
