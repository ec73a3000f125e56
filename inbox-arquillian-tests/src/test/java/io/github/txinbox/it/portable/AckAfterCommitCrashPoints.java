package io.github.txinbox.it.portable;

import io.github.txinbox.it.crash.CrashPoint;
import jakarta.transaction.Status;
import jakarta.transaction.Synchronization;
import jakarta.transaction.TransactionSynchronizationRegistry;
import javax.naming.InitialContext;
import javax.naming.NamingException;

/**
 * Where the set-up that acknowledges after the commit is stopped around its commit, by a synchronization the handler
 * registers with its transaction: {@code hang-before-commit} blocks before the commit (the database's work flushed,
 * not committed) until the test kills the server; {@code halt-after-commit} halts the JVM at once after the commit,
 * before {@code onMessage} returns and so before the broker is acknowledged. Each publishes the server's process id
 * in {@code handler_stall} first, so the test knows the point was reached, once per order.
 */
public final class AckAfterCommitCrashPoints {

    private AckAfterCommitCrashPoints() {
    }

    /**
     * Plans a stop around the commit of an order's transaction, if its behaviour asks for one; called in that
     * transaction.
     *
     * @param orderId   the order, the message id in the scope {@value AckAfterCommitHandler#SCOPE}
     * @param behaviour the message's behaviour
     */
    static void plan(String orderId, String behaviour) {
        boolean hang = "hang-before-commit".equals(behaviour);
        if (!hang && !"halt-after-commit".equals(behaviour)) {
            return;
        }
        registry().registerInterposedSynchronization(new Synchronization() {
            @Override
            public void beforeCompletion() {
                if (hang) {
                    CrashPoint.hangOnce(orderId);
                }
            }

            @Override
            public void afterCompletion(int status) {
                if (!hang && status == Status.STATUS_COMMITTED && CrashPoint.markReached(orderId)) {
                    Runtime.getRuntime().halt(137);
                }
            }
        });
    }

    private static TransactionSynchronizationRegistry registry() {
        try {
            return (TransactionSynchronizationRegistry) new InitialContext()
                    .lookup("java:comp/TransactionSynchronizationRegistry");
        } catch (NamingException e) {
            throw new IllegalStateException(e);
        }
    }
}
