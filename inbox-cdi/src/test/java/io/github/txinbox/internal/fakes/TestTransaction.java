package io.github.txinbox.internal.fakes;

import static org.junit.jupiter.api.Assertions.assertEquals;

import jakarta.transaction.Status;
import jakarta.transaction.Synchronization;
import jakarta.transaction.TransactionSynchronizationRegistry;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A transaction of a test's, seen through its registry: active until the test ends it, as the container would after
 * the call, and ended as the container ends one (synchronizations before and after completion).
 */
public final class TestTransaction implements TransactionSynchronizationRegistry {

    private final Object key = new Object();
    private final List<Synchronization> synchronizations = new ArrayList<>();
    private final Map<Object, Object> resources = new HashMap<>();
    private int status;

    /** An active transaction. */
    public TestTransaction() {
        this(Status.STATUS_ACTIVE);
    }

    private TestTransaction(int status) {
        this.status = status;
    }

    /**
     * No transaction: the registry of a thread that runs without one.
     *
     * @return the registry
     */
    public static TestTransaction none() {
        return new TestTransaction(Status.STATUS_NO_TRANSACTION);
    }

    /**
     * Returns the transaction's status now.
     *
     * @return a {@link Status} constant
     */
    public int status() {
        return status;
    }

    /**
     * Returns whether the transaction is marked for rollback.
     *
     * @return whether its status is {@link Status#STATUS_MARKED_ROLLBACK}
     */
    public boolean marked() {
        return status == Status.STATUS_MARKED_ROLLBACK;
    }

    /**
     * Returns the transaction's key, which the registry returns while it runs.
     *
     * @return the key
     */
    public Object key() {
        return key;
    }

    /** Ends the transaction as the container does: a commit unless it is marked for rollback. */
    public void end() {
        if (status == Status.STATUS_ACTIVE) {
            synchronizations.forEach(Synchronization::beforeCompletion);
            finish(Status.STATUS_COMMITTED);
        } else {
            finish(Status.STATUS_ROLLEDBACK);
        }
    }

    /** Ends an active transaction in a rollback, as a commit that fails does. */
    public void endRolledBack() {
        assertEquals(Status.STATUS_ACTIVE, status);
        synchronizations.forEach(Synchronization::beforeCompletion);
        finish(Status.STATUS_ROLLEDBACK);
    }

    /** Rolls the transaction back as a timeout does, on the reaper's thread, while the call still runs. */
    public void timeOut() {
        finish(Status.STATUS_ROLLEDBACK);
    }

    private void finish(int ended) {
        status = ended;
        synchronizations.forEach(synchronization -> synchronization.afterCompletion(ended));
    }

    @Override
    public Object getTransactionKey() {
        return status == Status.STATUS_NO_TRANSACTION ? null : key;
    }

    @Override
    public void putResource(Object resourceKey, Object value) {
        resources.put(resourceKey, value);
    }

    @Override
    public Object getResource(Object resourceKey) {
        return resources.get(resourceKey);
    }

    @Override
    public void registerInterposedSynchronization(Synchronization synchronization) {
        assertEquals(Status.STATUS_ACTIVE, status, "a synchronization registered after the transaction ended");
        synchronizations.add(synchronization);
    }

    @Override
    public int getTransactionStatus() {
        return status;
    }

    @Override
    public void setRollbackOnly() {
        if (status != Status.STATUS_ACTIVE && status != Status.STATUS_MARKED_ROLLBACK) {
            throw new IllegalStateException("the transaction has ended (status " + status + ")");
        }
        status = Status.STATUS_MARKED_ROLLBACK;
    }

    @Override
    public boolean getRollbackOnly() {
        return status == Status.STATUS_MARKED_ROLLBACK;
    }
}
