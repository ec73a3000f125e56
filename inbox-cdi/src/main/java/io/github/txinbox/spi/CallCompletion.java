package io.github.txinbox.spi;

import io.github.txinbox.InboxEvent;
import io.github.txinbox.InboxOutcome;
import jakarta.enterprise.event.Event;
import jakarta.transaction.Synchronization;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Reports a call once both its decision and its transaction's end are known. They usually come in that order on one
 * thread, but not when a timeout rolls the transaction back on another thread while the method still runs: whichever
 * comes second reports the call, once.
 *
 * @param <D> what the call was decided to be
 */
public final class CallCompletion<D> implements Synchronization {

    /**
     * Reports a decided call whose transaction has ended.
     *
     * @param <D> what the call was decided to be
     */
    @FunctionalInterface
    public interface Reporter<D> {

        /**
         * Reports the call.
         *
         * @param decision what the call was decided to be
         * @param status   what its transaction ended with: {@code Status.STATUS_COMMITTED} or
         *                 {@code Status.STATUS_ROLLEDBACK}, or {@code Status.STATUS_UNKNOWN} where the transaction
         *                 manager does not know
         */
        void report(D decision, int status);
    }

    private final Reporter<D> reporter;
    private boolean decided;
    private D decision;
    private Integer status;

    /**
     * A call not yet decided, whose transaction is still active.
     *
     * @param reporter what reports it once both are known
     */
    public CallCompletion(Reporter<D> reporter) {
        this.reporter = reporter;
    }

    /**
     * Notes the call's decision, and reports it at once if its transaction has ended already. Called once.
     *
     * @param made what the call was decided to be
     */
    public void decided(D made) {
        Integer ended;
        synchronized (this) {
            decided = true;
            decision = made;
            ended = status;
        }
        if (ended != null) {
            reporter.report(made, ended);
        }
    }

    @Override
    public void beforeCompletion() {
        // Nothing to do before the commit: what the call writes is written before it returns.
    }

    @Override
    public void afterCompletion(int ended) {
        boolean known;
        D made;
        synchronized (this) {
            status = ended;
            known = decided;
            made = decision;
        }
        if (known) {
            reporter.report(made, ended);
        }
    }

    /**
     * The reason a call is reported {@link InboxOutcome#ROLLED_BACK} with where it was decided to commit and its
     * transaction did not.
     *
     * @param decided what the call was decided to be
     * @param status  what its transaction ended with
     * @return the reason
     */
    public static String notCommitted(InboxOutcome decided, int status) {
        return decided + " decided, but the transaction did not commit (status " + status + "): its commit failed, or "
                + "it timed out";
    }

    /**
     * The reason a call that failed is reported with: the exception's class, and its message where it has one.
     *
     * @param e what the call failed with
     * @return the reason
     */
    public static String failure(Throwable e) {
        return e.getMessage() == null ? e.getClass().getName() : e.getClass().getName() + ": " + e.getMessage();
    }

    /**
     * Fires a call's event to the application's synchronous observers, after its transaction ended. An observer's
     * exception cannot change what the transaction ended with, so it is logged and dropped.
     *
     * @param events where the event goes
     * @param event  the event
     * @param log    where an observer's failure is logged
     */
    public static void fire(Event<InboxEvent> events, InboxEvent event, Logger log) {
        try {
            events.fire(event);
        } catch (RuntimeException e) {
            log.log(Level.WARNING, e, () -> "An observer of " + event + " failed; the inbox's decision stands");
        }
    }
}
