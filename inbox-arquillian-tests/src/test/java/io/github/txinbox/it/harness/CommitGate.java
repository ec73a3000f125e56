package io.github.txinbox.it.harness;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import javax.transaction.xa.Xid;
import org.apache.activemq.artemis.api.core.ActiveMQException;
import org.apache.activemq.artemis.api.core.ActiveMQExceptionType;
import org.apache.activemq.artemis.core.server.ActiveMQServer;
import org.apache.activemq.artemis.core.server.plugin.ActiveMQServerResourcePlugin;
import org.apache.activemq.artemis.core.transaction.Transaction;
import org.apache.activemq.artemis.spi.core.protocol.RemotingConnection;

/**
 * A crash point in the test broker, where the server's transaction manager cannot reach: the moment the second phase
 * of a prepared transaction branch arrives at the broker. The first time a request to end a prepared branch (its
 * commit) arrives after {@link #install}, the gate runs the test's action there (the test kills the server) and then
 * refuses the request, so that the branch stays prepared as if the request had never been sent. Every other request
 * passes.
 */
public final class CommitGate implements ActiveMQServerResourcePlugin, AutoCloseable {

    /** What the test does at the gate. */
    @FunctionalInterface
    public interface Action {
        /**
         * Runs at the gate, on the broker's thread that received the request.
         *
         * @param xid the branch whose second phase arrived
         */
        void run(Xid xid) throws Exception;
    }

    private final ActiveMQServer server;
    private final Action action;
    private final AtomicBoolean armed = new AtomicBoolean(true);
    private final CompletableFuture<Xid> reached = new CompletableFuture<>();

    private CommitGate(ActiveMQServer server, Action action) {
        this.server = server;
        this.action = action;
    }

    /**
     * Installs a gate in the test broker.
     *
     * @param action what to do when the second phase of a prepared branch arrives
     * @return the gate; close it to remove it
     */
    public static CommitGate install(Action action) {
        CommitGate gate = new CommitGate(ArtemisSession.server(), action);
        gate.server.registerBrokerPlugin(gate);
        return gate;
    }

    @Override
    public void beforeRemoveTransaction(Xid xid, RemotingConnection connection) throws ActiveMQException {
        Transaction branch = server.getResourceManager().getTransaction(xid);
        if (branch == null || branch.getState() != Transaction.State.PREPARED || !armed.compareAndSet(true, false)) {
            return;
        }
        try {
            action.run(xid);
            reached.complete(xid);
        } catch (Exception | AssertionError e) {
            reached.completeExceptionally(e);
        }
        throw new ActiveMQException(ActiveMQExceptionType.GENERIC_EXCEPTION,
                "The test's commit gate held back the second phase of " + xid);
    }

    /**
     * Waits until the gate has been reached and its action has run.
     *
     * @param timeout how long to wait at most
     * @return the branch whose second phase was held back
     * @throws AssertionError when the gate is not reached in time, or its action failed
     */
    public Xid awaitReached(Duration timeout) throws InterruptedException {
        try {
            return reached.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            throw new AssertionError("No prepared branch reached the commit gate within " + timeout, e);
        } catch (ExecutionException e) {
            throw new AssertionError("The commit gate's action failed: " + e.getCause(), e.getCause());
        }
    }

    @Override
    public void close() {
        armed.set(false);
        server.unRegisterBrokerPlugin(this);
    }
}
