package io.github.txinbox.it.crash;

import io.github.txinbox.it.app.TestDatabase;
import java.util.concurrent.TimeUnit;
import javax.transaction.xa.XAResource;
import javax.transaction.xa.Xid;

/**
 * Where the test kills the server, or restarts the database under it. {@link #hangOnce} publishes the server's
 * process id in {@code handler_stall} and blocks, the first time it is called for an order; {@link #holdOnce} does the
 * same until the test releases it. As an {@link XAResource} enlisted in a transaction it does so in the phase it is
 * given: in {@link #prepare}, after the resources enlisted before it have been prepared and before the transaction
 * manager has decided; in {@link #commit}, after every resource has been prepared and the decision to commit has been
 * logged. Otherwise it votes yes and has nothing to recover.
 */
public final class CrashPoint implements XAResource {

    /** The phase of the two-phase commit in which the crash point blocks. */
    public enum Phase {
        /** The first phase. */
        PREPARE,
        /** The second phase. */
        COMMIT,
        /** The second phase, until the test releases it ({@link #holdOnce}). */
        COMMIT_UNTIL_RELEASED
    }

    private final String orderId;
    private final Phase phase;

    /**
     * Creates a crash point for an order.
     *
     * @param orderId the order
     * @param phase   the phase in which it blocks
     */
    public CrashPoint(String orderId, Phase phase) {
        this.orderId = orderId;
        this.phase = phase;
    }

    /**
     * Returns the phase in the second phase of the commit that a message's {@code behaviour} asks for.
     *
     * @param behaviour the message's {@code behaviour}, or null
     * @return {@link Phase#COMMIT} for {@code hang-in-commit}, {@link Phase#COMMIT_UNTIL_RELEASED} for
     *         {@code hold-in-commit}, null for any other
     */
    public static Phase inCommit(String behaviour) {
        if ("hang-in-commit".equals(behaviour)) {
            return Phase.COMMIT;
        }
        return "hold-in-commit".equals(behaviour) ? Phase.COMMIT_UNTIL_RELEASED : null;
    }

    /**
     * Blocks (for up to five minutes: the test kills the server long before) the first time it is called for an
     * order, after publishing this process's id; returns at once on later calls.
     *
     * @param orderId the order
     */
    public static void hangOnce(String orderId) {
        if (!markReached(orderId)) {
            return;
        }
        try {
            Thread.sleep(TimeUnit.MINUTES.toMillis(5));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /**
     * Blocks, the first time it is called for an order, until the test sets {@code released} in the order's row of
     * {@code handler_stall} (for up to two minutes), and returns at once on later calls. The database it asks may be
     * away meanwhile (the test restarts it): a failed question is asked again.
     *
     * @param orderId the order
     */
    public static void holdOnce(String orderId) {
        if (!markReached(orderId)) {
            return;
        }
        long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(2);
        while (System.nanoTime() < deadline) {
            try {
                if (TestDatabase.queryLong("SELECT count(*) FROM " + TestDatabase.SCHEMA
                        + ".handler_stall WHERE order_id = ? AND released", orderId) > 0) {
                    return;
                }
            } catch (RuntimeException databaseAway) {
                // Asked again below.
            }
            try {
                Thread.sleep(100);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    /**
     * Publishes this process's id as having reached the crash point of an order, the first time it is called for the
     * order.
     *
     * @param orderId the order
     * @return whether this was the first time
     */
    public static boolean markReached(String orderId) {
        if (TestDatabase.queryLong("SELECT count(*) FROM " + TestDatabase.SCHEMA
                + ".handler_stall WHERE order_id = ?", orderId) > 0) {
            return false;
        }
        TestDatabase.update("INSERT INTO " + TestDatabase.SCHEMA + ".handler_stall (order_id, pid) VALUES (?, ?)",
                orderId, (int) ProcessHandle.current().pid());
        return true;
    }

    @Override
    public void commit(Xid xid, boolean onePhase) {
        if (phase == Phase.COMMIT) {
            hangOnce(orderId);
        } else if (phase == Phase.COMMIT_UNTIL_RELEASED) {
            holdOnce(orderId);
        }
    }

    @Override
    public void end(Xid xid, int flags) {
        // Nothing to do.
    }

    @Override
    public void forget(Xid xid) {
        // Nothing to do.
    }

    @Override
    public int getTransactionTimeout() {
        return 0;
    }

    @Override
    public boolean isSameRM(XAResource other) {
        return other == this;
    }

    @Override
    public int prepare(Xid xid) {
        if (phase == Phase.PREPARE) {
            hangOnce(orderId);
        }
        return XA_OK;
    }

    @Override
    public Xid[] recover(int flag) {
        return new Xid[0];
    }

    @Override
    public void rollback(Xid xid) {
        // Nothing to do.
    }

    @Override
    public boolean setTransactionTimeout(int seconds) {
        return false;
    }

    @Override
    public void start(Xid xid, int flags) {
        // Nothing to do.
    }
}
