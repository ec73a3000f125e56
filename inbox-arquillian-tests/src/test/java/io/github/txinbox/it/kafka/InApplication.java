package io.github.txinbox.it.kafka;

import jakarta.annotation.Resource;
import jakarta.enterprise.concurrent.ContextService;
import jakarta.enterprise.concurrent.ManagedExecutorService;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.enterprise.event.Startup;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Executor;

/**
 * Runs a Kafka record's handler as docs/kafka.md shows, for the test's consumer and the benchmark's: on a thread of
 * the application's managed executor, never on the connector's own thread, which must not block; and in the
 * application's context, captured when the application started, since the connector's threads have no component
 * environment and the handler's resources and the inbox's ({@code java:comp/TransactionSynchronizationRegistry})
 * would not be found there.
 */
@ApplicationScoped
public class InApplication {

    @Resource
    ManagedExecutorService executor;

    @Resource
    ContextService contexts;

    private volatile Executor context;

    void started(@Observes Startup startup) {
        context = contexts.currentContextExecutor();
    }

    /**
     * Runs a handler.
     *
     * @param handler the handler of one record, which commits its own transaction
     * @return completes when the handler has returned, or fails with the handler's failure
     */
    public CompletionStage<Void> run(Runnable handler) {
        CompletableFuture<Void> handled = new CompletableFuture<>();
        executor.execute(() -> context.execute(() -> {
            try {
                handler.run();
                handled.complete(null);
            } catch (RuntimeException e) {
                // Completed here, not thrown: the context's proxy would wrap it (UndeclaredThrowableException), and
                // the connector's dead-letter header would name that instead of the handler's failure.
                handled.completeExceptionally(e);
            }
        }));
        return handled;
    }
}
