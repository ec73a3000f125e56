package io.github.txinbox.examples;

// tag::consumer[]
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

@ApplicationScoped
public class KafkaOrderConsumer {

    @Inject
    KafkaOrderHandler handler;

    @Resource
    ManagedExecutorService executor;

    @Resource
    ContextService contexts;

    private volatile Executor inApplication;

    // The connector calls consume() on threads of its own, without the application's component environment:
    // capture it at start-up, and run the handler in it.
    void started(@Observes Startup startup) {
        inApplication = contexts.currentContextExecutor();
    }

    @Incoming("orders")
    public CompletionStage<Void> consume(ConsumerRecord<String, String> record) {
        CompletableFuture<Void> handled = new CompletableFuture<>();
        executor.execute(() -> inApplication.execute(() -> {
            try {
                handler.handle(record);
                handled.complete(null); // acknowledged: the offset is committed after the transaction
            } catch (RuntimeException e) {
                handled.completeExceptionally(e); // nacked with the handler's own failure
            }
        }));
        return handled;
    }
}
// end::consumer[]
