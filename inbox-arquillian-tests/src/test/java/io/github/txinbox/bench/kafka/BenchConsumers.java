package io.github.txinbox.bench.kafka;

import jakarta.annotation.Resource;
import jakarta.enterprise.concurrent.ContextService;
import jakarta.enterprise.concurrent.ManagedExecutorService;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.enterprise.event.Startup;
import jakarta.inject.Inject;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Executor;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.eclipse.microprofile.reactive.messaging.Incoming;

/**
 * The two channels, consumed as docs/kafka.md shows: each record handed to its handler on the managed executor, in
 * the application's context, and acknowledged when the handler's transaction has committed.
 */
@ApplicationScoped
public class BenchConsumers {

    /** The channel read by the handler with the inbox. */
    public static final String WITH_INBOX = "with-inbox";

    /** The channel read by the handler without it. */
    public static final String WITHOUT_INBOX = "without-inbox";

    @Inject
    BenchHandlers.WithInbox withInbox;

    @Inject
    BenchHandlers.WithoutInbox withoutInbox;

    @Resource
    ManagedExecutorService executor;

    @Resource
    ContextService contexts;

    private volatile Executor inApplication;

    void started(@Observes Startup startup) {
        inApplication = contexts.currentContextExecutor();
    }

    /**
     * Handles a record with the inbox.
     *
     * @param record the record
     * @return completes after the commit
     */
    @Incoming(WITH_INBOX)
    public CompletionStage<Void> withInbox(ConsumerRecord<String, String> record) {
        return handle(() -> withInbox.handle(record));
    }

    /**
     * Handles a record without the inbox.
     *
     * @param record the record
     * @return completes after the commit
     */
    @Incoming(WITHOUT_INBOX)
    public CompletionStage<Void> withoutInbox(ConsumerRecord<String, String> record) {
        return handle(() -> withoutInbox.handle(record));
    }

    private CompletionStage<Void> handle(Runnable handler) {
        CompletableFuture<Void> handled = new CompletableFuture<>();
        executor.execute(() -> inApplication.execute(() -> {
            try {
                handler.run();
                handled.complete(null);
            } catch (RuntimeException e) {
                handled.completeExceptionally(e);
            }
        }));
        return handled;
    }
}
