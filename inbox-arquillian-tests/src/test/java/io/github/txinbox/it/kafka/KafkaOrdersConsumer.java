package io.github.txinbox.it.kafka;

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
 * The consumer of the channel {@value #CHANNEL}: hands each record to {@link KafkaOrders} on a thread of the
 * application's managed executor, never on the connector's own thread, which must not block. The connector
 * acknowledges the record (and commits its offset) when the returned stage completes, that is after the handler's
 * transaction has committed; when the stage fails, it nacks the record, and its failure strategy decides.
 *
 * <p>The connector calls this method on threads of its own, which have no component environment: the handler runs in
 * the application's, captured when the application started, so that its resources and the inbox's
 * ({@code java:comp/TransactionSynchronizationRegistry}) are found.
 */
@ApplicationScoped
public class KafkaOrdersConsumer {

    /** The channel, configured in the deployment's microprofile-config.properties. */
    public static final String CHANNEL = "kafka-orders";

    @Inject
    KafkaOrders orders;

    @Resource
    ManagedExecutorService executor;

    @Resource
    ContextService contexts;

    private volatile Executor inApplication;

    void started(@Observes Startup startup) {
        inApplication = contexts.currentContextExecutor();
    }

    /**
     * Handles a record.
     *
     * @param record the record
     * @return completes when the handler's transaction has committed, or fails with the handler's failure
     */
    @Incoming(CHANNEL)
    public CompletionStage<Void> consume(ConsumerRecord<String, String> record) {
        CompletableFuture<Void> handled = new CompletableFuture<>();
        executor.execute(() -> inApplication.execute(() -> {
            try {
                orders.handle(record);
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
