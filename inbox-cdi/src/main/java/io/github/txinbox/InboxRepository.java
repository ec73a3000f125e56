package io.github.txinbox;

import jakarta.annotation.PostConstruct;
import jakarta.enterprise.context.Dependent;
import jakarta.inject.Inject;
import jakarta.inject.Named;
import jakarta.persistence.EntityManager;
import jakarta.persistence.FlushModeType;
import jakarta.persistence.PersistenceContext;
import jakarta.persistence.PersistenceException;
import jakarta.persistence.Query;
import jakarta.transaction.Status;
import jakarta.transaction.TransactionSynchronizationRegistry;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * Records processed messages in PostgreSQL, in the caller's JTA transaction.
 *
 * <p>Each marker is keyed by a scope (usually one per consumer) and a message id. {@link #claim} inserts it in the
 * transaction that also runs the message's handler, so that the handler's writes and the marker commit or roll back
 * together: a message whose transaction committed is recognised when it is delivered again, and one whose
 * transaction rolled back is not; {@link #claimAll} claims a batch of them in one statement. Expired markers are
 * removed with {@link #cleanupCutoff} and {@link #deleteExpiredBatch}.
 *
 * <p>The repository never begins, commits or rolls back a transaction: the container owns it. Every method requires
 * an active transaction and throws {@link NoActiveTransactionException} otherwise, and every method checks its
 * arguments before any SQL runs, so a bad argument leaves the caller's transaction usable.
 *
 * <p><b>Persistence unit.</b> The repository uses the container-managed {@link EntityManager} of the persistence
 * context reference {@value #PERSISTENCE_CONTEXT_NAME}. With one persistence unit in the application, that is the
 * one. With several, name the one to use in the module's deployment descriptor ({@code web.xml},
 * {@code ejb-jar.xml} or {@code application.xml}), which overrides the annotation:
 *
 * <pre>{@code
 * <persistence-context-ref>
 *     <persistence-context-ref-name>txinbox/persistence-context</persistence-context-ref-name>
 *     <persistence-unit-name>orders</persistence-unit-name>
 * </persistence-context-ref>
 * }</pre>
 *
 * <p><b>Table.</b> The markers live in {@link InboxTable#DEFAULT} unless the application produces an
 * {@link InboxTable} bean or names a table in the setting {@value InboxSettings#TABLE}. The table must
 * exist: see {@link InboxSchema}.
 */
@Dependent
public class InboxRepository {

    /** The name of the persistence context reference the repository's {@link EntityManager} is injected from. */
    public static final String PERSISTENCE_CONTEXT_NAME = "txinbox/persistence-context";

    /**
     * Hibernate's hint naming the tables a native query touches. Without it, Hibernate treats a native update as
     * touching every table and evicts every second-level cache region after it; with it, only regions mapped to the
     * inbox table (none) are evicted. Other providers ignore hints they do not know, as JPA requires.
     */
    private static final String HIBERNATE_NATIVE_SPACES = "org.hibernate.query.native.spaces";

    private static final Sql.Jdbc RESTORE_LOCK_TIMEOUT_JDBC = Sql.Jdbc.of(Sql.RESTORE_LOCK_TIMEOUT);

    @PersistenceContext(name = PERSISTENCE_CONTEXT_NAME)
    private EntityManager entityManager;

    /**
     * The server's registry, as the inbox's extension found it at deployment; not a {@code @Resource} lookup, which
     * fails where a thread without a component environment (a Kafka connector's) first creates the repository.
     */
    @Inject
    @Named("io.github.txinbox.transactions")
    private TransactionSynchronizationRegistry transactions;

    @Inject
    private InboxSettings settings = InboxSettings.DEFAULTS;

    private InboxTable table;
    private Sql.Statements statements;
    private ProviderConnection provider;
    private String claimLockTimeout;

    /** For the container; applications inject the repository. */
    protected InboxRepository() {
    }

    @PostConstruct
    void init() {
        table = settings.table();
        statements = Sql.Statements.of(table);
        claimLockTimeout = settings.claimMaxWait().toMillis() + "ms";
    }

    /**
     * Claims a message for processing in the current transaction, by inserting its marker unless one exists.
     *
     * <p>Returns {@code true} when this transaction inserted the marker: process the message. Returns
     * {@code false} when a committed marker exists: the message was processed before, skip it. If another
     * transaction has inserted the same marker and not yet finished, the call waits for it: it then returns
     * {@code false} if that transaction committed and {@code true} if it rolled back. A duplicate raises no
     * database error, so the transaction stays usable either way.
     *
     * <p>The wait is bounded by {@link InboxSettings#claimMaxWait()} ({@value InboxSettings#CLAIM_MAX_WAIT}): a
     * marker held longer belongs to a transaction that is stuck, or prepared and in doubt after a crash. The claim then
     * throws {@link InboxMarkerHeldException} (PostgreSQL failed the statement with SQLSTATE 55P03,
     * {@code lock_not_available}, which aborts the transaction): roll it back and let the message come again. The
     * {@link Inbox @Inbox} interceptor does so and reports it as {@link InboxOutcome#HELD}. The bound applies to the
     * claim alone; the transaction's own {@code lock_timeout} is in effect again after it. Under REPEATABLE READ or
     * SERIALIZABLE, a marker committed by another transaction after this one's snapshot makes the claim throw
     * {@link InboxConflictException} instead (SQLSTATE 40001, or 40P01 for a deadlock); a fresh attempt finds the
     * committed marker.
     *
     * <p>When the statement fails, whatever the reason, PostgreSQL has aborted the transaction, and the claim marks it
     * for rollback before it throws: not every JPA provider does so on a lock timeout, and a commit would then end it
     * in a rollback that the caller does not see.
     *
     * @param scope     the deduplication scope, such as the consumer's name; not blank, at most
     *                  {@value InboxLimits#MAX_SCOPE_BYTES} bytes in UTF-8 (or the configured limit)
     * @param messageId the message's id; not blank, at most {@value InboxLimits#DEFAULT_MESSAGE_ID_BYTES} bytes in UTF-8
     *                  (or the configured limit)
     * @return {@code true} if this transaction claimed the message, {@code false} if it was already processed
     * @throws IllegalArgumentException     when the scope or message id is null, blank, too long, or contains a NUL
     *                                      character or an unpaired surrogate
     * @throws NoActiveTransactionException when no JTA transaction is active
     * @throws InboxMarkerHeldException     when another transaction held the marker for longer than the bound
     *                                      (SQLSTATE 55P03, in its cause)
     * @throws InboxConflictException       when the claim conflicted with a concurrent transaction (SQLSTATE 40001
     *                                      or 40P01, in its cause)
     * @throws jakarta.persistence.PersistenceException when the database fails the statement otherwise, for example
     *                                      because the table does not exist
     */
    public boolean claim(String scope, String messageId) {
        InboxLimits.requireKey("scope", scope, settings.maxScopeBytes());
        InboxLimits.requireKey("messageId", messageId, settings.maxMessageIdBytes());
        requireActiveTransaction("InboxRepository.claim");
        try {
            return provider().run(entityManager,
                    connection -> claimOn(connection, scope, messageId),
                    () -> claimAsNativeQuery(scope, messageId));
        } catch (RuntimeException e) {
            throw markedForRollback(claimRefused(e, settings.claimMaxWait()));
        }
    }

    private boolean claimOn(Connection connection, String scope, String messageId) throws SQLException {
        try (PreparedStatement claim = statements.claimJdbc().prepare(connection, scope, messageId,
                claimLockTimeout);
                ResultSet row = claim.executeQuery()) {
            if (row.next()) {
                return true;
            }
        }
        // A duplicate: no row evaluated the claim's RETURNING, which puts the transaction's lock_timeout back.
        try (PreparedStatement restore = RESTORE_LOCK_TIMEOUT_JDBC.prepare(connection);
                ResultSet restored = restore.executeQuery()) {
            return false;
        }
    }

    private boolean claimAsNativeQuery(String scope, String messageId) {
        boolean claimed = !nativeQuery(statements.claim())
                .setParameter(1, scope)
                .setParameter(2, messageId)
                .setParameter(3, claimLockTimeout)
                .getResultList()
                .isEmpty();
        if (!claimed) {
            nativeQuery(Sql.RESTORE_LOCK_TIMEOUT).getSingleResult();
        }
        return claimed;
    }

    /** The provider's way to the transaction's connection; asked in a transaction, once per repository. */
    private ProviderConnection provider() {
        if (provider == null) {
            provider = ProviderConnection.of(entityManager);
        }
        return provider;
    }

    /**
     * Claims several messages of one scope in the current transaction, in one statement: what {@link #claim} does for
     * each of them, for the price of one round trip. Made for a consumer that receives its messages in batches, such
     * as a Kafka connector's poll.
     *
     * <p>Returns the ids this transaction inserted the marker of: process those, skip the others, which were
     * processed before. An id given more than once is claimed once, and returned once. Like {@link #claim}, the call
     * waits for a concurrent transaction that holds one of the markers, at most {@link InboxSettings#claimMaxWait()}
     * for the whole statement, and returns that id if the other transaction rolled back. Every call sends its ids in
     * one order (sorted), so that two batches sharing ids wait for each other rather than deadlock.
     *
     * <p>The markers are written in the caller's transaction and commit or roll back together: a batch whose
     * transaction rolls back leaves no marker of any of its ids, and each comes again unprocessed. To commit some
     * messages of a batch while others fail, claim and process each failing one in a transaction of its own.
     *
     * <p>Every id is checked before any SQL runs, as {@link #claim} checks one; an empty collection claims nothing
     * and sends no SQL, but still requires an active transaction. When the statement fails, the call marks the
     * transaction for rollback and throws as {@link #claim} does.
     *
     * @param scope      the deduplication scope, as for {@link #claim}
     * @param messageIds the messages' ids, each valid as for {@link #claim}; at most
     *                   {@value InboxLimits#MAX_CLAIM_IDS} distinct ones
     * @return the ids this transaction claimed, each once, iterating in the order first given; unmodifiable
     * @throws IllegalArgumentException     when the scope is not valid, the collection is null or holds more than
     *                                      {@value InboxLimits#MAX_CLAIM_IDS} distinct ids, or an id is not valid (the
     *                                      message names its position)
     * @throws NoActiveTransactionException when no JTA transaction is active
     * @throws InboxMarkerHeldException     when another transaction held one of the markers for longer than the bound
     * @throws InboxConflictException       when the claim conflicted with a concurrent transaction
     * @throws jakarta.persistence.PersistenceException when the database fails the statement otherwise
     */
    public Set<String> claimAll(String scope, Collection<String> messageIds) {
        InboxLimits.requireKey("scope", scope, settings.maxScopeBytes());
        if (messageIds == null) {
            throw new IllegalArgumentException("messageIds must not be null");
        }
        Set<String> given = new LinkedHashSet<>();
        int position = 0;
        for (String messageId : messageIds) {
            given.add(InboxLimits.requireKey("messageIds[" + position++ + "]", messageId,
                    settings.maxMessageIdBytes()));
        }
        if (given.size() > InboxLimits.MAX_CLAIM_IDS) {
            throw new IllegalArgumentException("messageIds holds " + given.size() + " distinct ids; the limit is "
                    + InboxLimits.MAX_CLAIM_IDS + ": claim them in several calls");
        }
        requireActiveTransaction("InboxRepository.claimAll");
        if (given.isEmpty()) {
            return Set.of();
        }
        List<String> sorted = new ArrayList<>(given);
        Collections.sort(sorted);
        String ids = Sql.textArray(sorted);
        String result;
        try {
            result = provider().run(entityManager,
                    connection -> {
                        try (PreparedStatement claim = statements.claimAllJdbc().prepare(connection, scope, ids,
                                claimLockTimeout);
                                ResultSet row = claim.executeQuery()) {
                            row.next();
                            return row.getString(1);
                        }
                    },
                    () -> (String) nativeQuery(statements.claimAll())
                            .setParameter(1, scope)
                            .setParameter(2, ids)
                            .setParameter(3, claimLockTimeout)
                            .getSingleResult());
        } catch (RuntimeException e) {
            throw markedForRollback(claimRefused(e, settings.claimMaxWait()));
        }
        String positions = result.substring(0, result.indexOf('/'));
        if (positions.isEmpty()) {
            return Set.of();
        }
        Set<String> claimed = new HashSet<>();
        for (String claimedPosition : positions.split(",")) {
            claimed.add(sorted.get(Integer.parseInt(claimedPosition) - 1));
        }
        given.retainAll(claimed); // keeps the order first given
        return Collections.unmodifiableSet(given);
    }

    /** Marks the transaction for rollback, as PostgreSQL has aborted it, and returns the failure to throw. */
    private RuntimeException markedForRollback(RuntimeException refused) {
        try {
            transactions.setRollbackOnly();
        } catch (IllegalStateException ended) {
            // The transaction already ended (a timeout rolled it back): nothing left to mark.
            refused.addSuppressed(ended);
        }
        return refused;
    }

    /**
     * Says what a failed claim means, from the SQLSTATE in the failure's cause chain.
     *
     * @param failure what the claim's statement threw
     * @param maxWait the claim's bound, for the message
     * @return {@link InboxMarkerHeldException} for 55P03, {@link InboxConflictException} for 40001 and 40P01, each
     *         with the failure as its cause; else the failure itself
     */
    static RuntimeException claimRefused(RuntimeException failure, Duration maxWait) {
        String state = SqlStates.of(failure);
        if (SqlStates.LOCK_NOT_AVAILABLE.equals(state)) {
            return new InboxMarkerHeldException("another transaction held the marker for longer than " + maxWait
                    + " (" + InboxSettings.CLAIM_MAX_WAIT + "): a copy still being processed, or a transaction "
                    + "prepared and in doubt (see pg_prepared_xacts)", failure);
        }
        if (SqlStates.isTransactionConflict(failure)) {
            return new InboxConflictException("the claim conflicted with a concurrent transaction (SQLSTATE " + state
                    + ")", state, failure);
        }
        return failure;
    }

    /**
     * Returns the instant before which markers have expired: the database's {@code now()} (the start of the current
     * transaction, on the database server's clock, never the JVM's) minus the retention, to the microsecond.
     *
     * <p>The retention is the deduplication window: a message delivered again after its marker was deleted is
     * processed again. Choose it longer than the broker's longest redelivery horizon.
     *
     * @param retention how long markers are kept; at least one microsecond and at most
     *                  {@link InboxLimits#MAX_RETENTION}
     * @return the cutoff, for {@link #deleteExpiredBatch}
     * @throws IllegalArgumentException     when the retention is null, shorter than a microsecond, or longer than
     *                                      {@link InboxLimits#MAX_RETENTION}
     * @throws NoActiveTransactionException when no JTA transaction is active
     */
    public Instant cleanupCutoff(Duration retention) {
        InboxLimits.requireRetention(retention);
        requireActiveTransaction("InboxRepository.cleanupCutoff");
        Object micros = entityManager.createNativeQuery(Sql.NOW_MICROS).getSingleResult();
        Instant now = Instant.EPOCH.plus(((Number) micros).longValue(), ChronoUnit.MICROS);
        return now.minus(retention).truncatedTo(ChronoUnit.MICROS);
    }

    /**
     * Deletes at most {@code limit} markers processed strictly before {@code cutoff}, oldest first. Call it in a
     * transaction of its own per batch, and repeat until it returns less than the limit.
     * {@link #deleteExpiredBatch(Instant, Instant, int)} does the same from a lower bound, which makes a long run of
     * batches much faster.
     *
     * <p>A batch first waits for the purge's turn on the table, a transaction-scoped advisory lock, so that cleanup
     * running on several nodes runs one batch at a time and never deletes a marker twice; it then deletes without
     * locking rows beforehand, so it writes no more than the deletes themselves. Claims of new messages never wait
     * for it. The wait for the turn is bounded by {@link InboxSettings#claimMaxWait()}: a transaction that keeps the
     * turn longer (one that called this method and is stuck, or prepared and in doubt) fails the batch with a
     * {@link jakarta.persistence.PersistenceException} naming the lock. The same bound limits the wait for an expired
     * marker that another transaction locked (the inbox never locks one; an application's transaction that updates or
     * locks it does): past it, the batch fails the same way and deletes nothing. Use READ COMMITTED, PostgreSQL's default:
     * under REPEATABLE READ a batch's snapshot may predate the previous batch, and PostgreSQL fails it with SQLSTATE
     * 40001.
     *
     * @param cutoff markers with {@code processed_at} before this instant are deleted; a marker exactly at the
     *               cutoff is kept. Between the years 1 and 9999.
     * @param limit  the most markers to delete, from 1 to {@value InboxLimits#MAX_BATCH_SIZE}
     * @return how many markers were deleted
     * @throws IllegalArgumentException     when the cutoff is null or out of range, or the limit is out of range
     * @throws NoActiveTransactionException when no JTA transaction is active
     * @throws PersistenceException         when another transaction kept the purge's turn, or a lock on an expired
     *                                      marker, for longer than {@link InboxSettings#claimMaxWait()}; the
     *                                      transaction is marked for rollback
     */
    public int deleteExpiredBatch(Instant cutoff, int limit) {
        return deleteExpiredBatch(InboxLimits.EARLIEST, cutoff, limit).deleted();
    }

    /**
     * Like {@link #deleteExpiredBatch(Instant, int)}, but only markers processed at or after {@code from}. Pass the
     * {@link DeletedBatch#newest()} of the previous batch: each batch then starts its index scan where the previous
     * one stopped, instead of stepping again over the index entries of every marker deleted before (they stay in the
     * index until VACUUM), so a run of many batches takes time in proportion to the markers, not to their square.
     *
     * @param from   markers with {@code processed_at} before this instant are kept; truncated to the microsecond.
     *               Between {@link InboxLimits#EARLIEST} (for the first batch) and the year 9999, and not after the
     *               cutoff.
     * @param cutoff markers with {@code processed_at} before this instant are deleted; a marker exactly at the
     *               cutoff is kept. Between the years 1 and 9999.
     * @param limit  the most markers to delete, from 1 to {@value InboxLimits#MAX_BATCH_SIZE}
     * @return how many markers were deleted, and the newest one's {@code processed_at}
     * @throws IllegalArgumentException     when an instant is null or out of range, {@code from} is after the cutoff,
     *                                      or the limit is out of range
     * @throws NoActiveTransactionException when no JTA transaction is active
     * @throws PersistenceException         when another transaction kept the purge's turn, or a lock on an expired
     *                                      marker, for longer than {@link InboxSettings#claimMaxWait()}; the
     *                                      transaction is marked for rollback
     */
    public DeletedBatch deleteExpiredBatch(Instant from, Instant cutoff, int limit) {
        InboxLimits.requireInstant("from", from);
        InboxLimits.requireInstant("cutoff", cutoff);
        if (from.isAfter(cutoff)) {
            throw new IllegalArgumentException("from " + from + " is after the cutoff " + cutoff);
        }
        InboxLimits.requireBatchSize("limit", limit);
        requireActiveTransaction("InboxRepository.deleteExpiredBatch");
        lockBounded(() -> nativeQuery(Sql.PURGE_TURN)
                .setParameter(1, table.quotedName())
                .setParameter(2, claimLockTimeout)
                .getSingleResult(),
                "another transaction held the purge's turn on " + table.quotedName() + " for longer than "
                        + settings.claimMaxWait() + " (" + InboxSettings.CLAIM_MAX_WAIT + "): a purge batch that is "
                        + "stuck, or prepared and in doubt (see pg_locks: locktype advisory, classid "
                        + Sql.PURGE_LOCK_CLASS + ")");
        String result = (String) lockBounded(() -> nativeQuery(statements.deleteExpiredBatch())
                .setParameter(1, from.truncatedTo(ChronoUnit.MICROS).toString())
                .setParameter(2, ceilToMicros(cutoff).toString())
                .setParameter(3, limit)
                .getSingleResult(),
                "another transaction held a lock on an expired marker of " + table.quotedName() + ", or on the "
                        + "table, for longer than " + settings.claimMaxWait() + " (" + InboxSettings.CLAIM_MAX_WAIT
                        + "): the purge batch deleted nothing. The inbox never locks an expired marker; a transaction "
                        + "of the application's that updates or locks one, or one prepared and in doubt, does (see "
                        + "pg_locks and pg_blocking_pids)");
        // The turn's bound applied to the delete too; the transaction's own lock_timeout is in force again.
        nativeQuery(Sql.RESTORE_LOCK_TIMEOUT).getSingleResult();
        int slash = result.indexOf('/');
        int deleted = Integer.parseInt(result.substring(0, slash));
        String newest = result.substring(slash + 1);
        return new DeletedBatch(deleted,
                newest.isEmpty() ? null : Instant.EPOCH.plus(Long.parseLong(newest), ChronoUnit.MICROS));
    }

    /**
     * Runs a statement of the purge under the bound on lock waits: past it (SQLSTATE 55P03), PostgreSQL has aborted
     * the transaction, which is marked for rollback, and the statement fails with the message given.
     */
    private Object lockBounded(Supplier<Object> statement, String heldTooLong) {
        try {
            return statement.get();
        } catch (RuntimeException e) {
            if (SqlStates.LOCK_NOT_AVAILABLE.equals(SqlStates.of(e))) {
                throw markedForRollback(new PersistenceException(heldTooLong, e));
            }
            throw e;
        }
    }

    /**
     * Checks that the table exists with what the inbox needs: the columns {@code scope} and {@code message_id}
     * ({@code text}) and {@code processed_at} ({@code timestamptz}), all {@code NOT NULL}, and the primary key
     * {@code (scope, message_id)}. Other columns and indexes are allowed. The library calls it when the application
     * starts (see docs/settings.md); call it yourself for a health check.
     *
     * @throws InboxTableException          when the table is missing or differs, naming the table, what differs and
     *                                      the DDL that creates it
     * @throws NoActiveTransactionException when no JTA transaction is active
     */
    public void verifyTable() {
        requireActiveTransaction("InboxRepository.verifyTable");
        // The start-up check calls this first: the claims' way is chosen (and logged) as the application starts.
        provider();
        Object description = nativeQuery(Sql.DESCRIBE_TABLE).setParameter(1, table.quotedName()).getSingleResult();
        List<String> problems = TableShape.problems((String) description);
        if (!problems.isEmpty()) {
            throw new InboxTableException("The inbox table " + table.quotedName() + " will not do: "
                    + String.join("; ", problems), InboxSchema.createTableSql(table));
        }
    }

    /**
     * Lists the transactions prepared in this database ({@code pg_prepared_xacts}) for at least the given time, on the
     * database clock, oldest first. An XA transaction's database branch is prepared for milliseconds; one that stays
     * prepared was left in doubt by a crash, and until it is resolved it keeps its row locks, an inbox marker's
     * included, so a redelivery of that message waits in its claim. The readiness check reports them where the
     * server has MicroProfile Health (docs/guarantees.md); call it yourself to alert elsewhere. Without XA the inbox
     * never prepares a transaction in the database.
     *
     * @param olderThan how long a transaction must have been prepared to be listed; zero lists them all
     * @return the transactions, oldest first; empty when there are none
     * @throws IllegalArgumentException     when {@code olderThan} is null, negative or above
     *                                      {@link InboxLimits#MAX_RETENTION}
     * @throws NoActiveTransactionException when no JTA transaction is active
     */
    public List<PreparedTransaction> preparedTransactions(Duration olderThan) {
        if (olderThan == null || olderThan.isNegative() || olderThan.compareTo(InboxLimits.MAX_RETENTION) > 0) {
            throw new IllegalArgumentException("olderThan must lie between zero and " + InboxLimits.MAX_RETENTION
                    + ", but is " + olderThan);
        }
        requireActiveTransaction("InboxRepository.preparedTransactions");
        List<?> rows = nativeQuery(Sql.PREPARED_TRANSACTIONS)
                .setParameter(1, TimeUnit.NANOSECONDS.toMicros(olderThan.toNanos()))
                .getResultList();
        List<PreparedTransaction> prepared = new ArrayList<>(rows.size());
        for (Object row : rows) {
            prepared.add(PreparedTransaction.ofRow((String) row));
        }
        return prepared;
    }

    /**
     * Returns the table this repository writes to.
     *
     * @return the configured table, or {@link InboxTable#DEFAULT}
     */
    public InboxTable table() {
        return table;
    }

    private Query nativeQuery(String sql) {
        Query query = entityManager.createNativeQuery(sql);
        // Nothing mapped by the application lives in the inbox table, so pending entity changes need no flush
        // before these statements (Hibernate would otherwise flush the whole persistence context).
        query.setFlushMode(FlushModeType.COMMIT);
        query.setHint(HIBERNATE_NATIVE_SPACES, table.qualifiedName());
        return query;
    }

    private void requireActiveTransaction(String operation) {
        if (transactions == null || entityManager == null) {
            throw new IllegalStateException(operation + " cannot run: the container injected no "
                    + (entityManager == null ? "EntityManager" : "TransactionSynchronizationRegistry") + " into this "
                    + "InboxRepository, so it was created outside a component's environment (Payara creates the "
                    + "beans of an EAR's lib/ that way for the start-up event at the level of the EAR). Inject it "
                    + "into a bean of a web or EJB module");
        }
        int status = transactions.getTransactionStatus();
        if (status != Status.STATUS_ACTIVE) {
            throw new NoActiveTransactionException(operation, status);
        }
    }

    /** PostgreSQL keeps microseconds; "older than" a cutoff between two microseconds means "before the later one". */
    private static Instant ceilToMicros(Instant instant) {
        Instant truncated = instant.truncatedTo(ChronoUnit.MICROS);
        return truncated.equals(instant) ? truncated : truncated.plus(1, ChronoUnit.MICROS);
    }
}
