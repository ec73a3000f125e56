package io.github.txinbox.it.app;

import jakarta.transaction.Status;
import jakarta.transaction.UserTransaction;
import java.util.concurrent.Callable;

/** Runs test code in a JTA transaction of its own, begun and ended through {@link UserTransaction}. */
public final class Transactions {

    private Transactions() {
    }

    /**
     * Runs the work in a new transaction and commits it.
     *
     * @return what the work returned
     */
    public static <T> T commit(UserTransaction transaction, Callable<T> work) throws Exception {
        transaction.begin();
        try {
            T result = work.call();
            transaction.commit();
            return result;
        } finally {
            rollbackIfStillOpen(transaction);
        }
    }

    /**
     * Runs the work in a new transaction and rolls it back.
     *
     * @return what the work returned
     */
    public static <T> T rollback(UserTransaction transaction, Callable<T> work) throws Exception {
        transaction.begin();
        try {
            return work.call();
        } finally {
            rollbackIfStillOpen(transaction);
        }
    }

    private static void rollbackIfStillOpen(UserTransaction transaction) throws Exception {
        if (transaction.getStatus() != Status.STATUS_NO_TRANSACTION) {
            transaction.rollback();
        }
    }
}
