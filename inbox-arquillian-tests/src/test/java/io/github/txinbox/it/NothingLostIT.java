package io.github.txinbox.it;

import static io.github.txinbox.it.app.TestDatabase.INBOX;
import static io.github.txinbox.it.app.TestDatabase.handlerCalls;
import static io.github.txinbox.it.app.TestDatabase.invoices;
import static io.github.txinbox.it.app.TestDatabase.markers;
import static io.github.txinbox.it.app.TestDatabase.newOrderId;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.github.txinbox.it.app.TestDatabase;
import io.github.txinbox.it.harness.Await;
import io.github.txinbox.it.harness.Deployments;
import io.github.txinbox.it.harness.Messages;
import io.github.txinbox.it.harness.Server;
import io.github.txinbox.it.messaging.Orders;
import io.github.txinbox.it.portable.AckAfterCommitHandler;
import io.github.txinbox.it.portable.AckAfterCommitListener;
import io.github.txinbox.it.portable.AckAfterCommitRequiredHandler;
import io.github.txinbox.it.portable.AckAfterCommitRequiresNewHandler;
import io.github.txinbox.it.portable.PortableOrdersListener;
import java.net.URL;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.arquillian.test.api.ArquillianResource;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Nothing is lost, whatever the handler does to its transaction on the first delivery: marks it for rollback and
 * returns, catches the failure of a nested {@code REQUIRED} step (whose container marked it), returns or throws a
 * retry, or has its commit fail on a deferred constraint. For each kind of handler: a {@code @Transactional} CDI bean,
 * a stateless bean with {@code REQUIRED} and one with {@code REQUIRES_NEW}, each called from a message-driven bean
 * without a transaction (acknowledged when {@code onMessage} returns), and, where the leg has XA, the message-driven
 * bean's own {@code onMessage} in the container's transaction. In every case the message comes again and is processed
 * exactly once (one invoice, one marker, two handler calls), nothing is dead-lettered, the first attempt is reported
 * as what its transaction ended with (never {@code PROCESSED}), and nothing is left prepared in PostgreSQL.
 */
@Tag("portable")
@ExtendWith(ArquillianExtension.class)
class NothingLostIT {

    private static final Duration WAIT = Duration.ofSeconds(60);

    /** A kind of handler: where its messages go, the property that routes them, its scope and its consumer name. */
    enum Handler {
        CDI_TRANSACTIONAL(AckAfterCommitListener.QUEUE, null, AckAfterCommitHandler.SCOPE, AckAfterCommitHandler.SCOPE),
        EJB_REQUIRED(AckAfterCommitListener.QUEUE, AckAfterCommitListener.VIA_REQUIRED,
                AckAfterCommitRequiredHandler.SCOPE, AckAfterCommitRequiredHandler.SCOPE),
        EJB_REQUIRES_NEW(AckAfterCommitListener.QUEUE, AckAfterCommitListener.VIA_REQUIRES_NEW,
                AckAfterCommitRequiresNewHandler.SCOPE, AckAfterCommitRequiresNewHandler.SCOPE),
        MDB_IN_CONTAINER_TRANSACTION(PortableOrdersListener.QUEUE, null, PortableOrdersListener.class.getName(),
                PortableOrdersListener.CONSUMER);

        final String queue;
        final String via;
        final String scope;
        final String consumer;

        Handler(String queue, String via, String scope, String consumer) {
            this.queue = queue;
            this.via = via;
            this.scope = scope;
            this.consumer = consumer;
        }
    }

    /** What the handler does on the first delivery, and what that attempt must be reported as. */
    enum FirstAttempt {
        MARKS_ROLLBACK_ONLY_AND_RETURNS("rollback-only-first", "ROLLED_BACK"),
        CATCHES_A_NESTED_FAILURE("catch-nested-first", "ROLLED_BACK"),
        RETURNS_A_RETRY("retry-returned-first", "RETRY"),
        THROWS_A_RETRY("retry-first", "RETRY"),
        COMMIT_FAILS("fail-commit-first", "ROLLED_BACK");

        final String behaviour;
        final String reported;

        FirstAttempt(String behaviour, String reported) {
            this.behaviour = behaviour;
            this.reported = reported;
        }
    }

    @Deployment(testable = false)
    static WebArchive deployment() {
        return Deployments.withMessaging(Deployments.war(NothingLostIT.class));
    }

    static Stream<Arguments> cases() {
        List<Arguments> cases = new ArrayList<>();
        for (Handler handler : Handler.values()) {
            if (handler == Handler.MDB_IN_CONTAINER_TRANSACTION && Server.nonXa()) {
                continue;
            }
            for (FirstAttempt first : FirstAttempt.values()) {
                // A message-driven bean's onMessage returns void: it can throw a retry, not return one.
                if (handler != Handler.MDB_IN_CONTAINER_TRANSACTION || first != FirstAttempt.RETURNS_A_RETRY) {
                    cases.add(Arguments.of(handler, first));
                }
            }
        }
        return cases.stream();
    }

    @ArquillianResource
    URL url;

    private Messages messages;

    @BeforeEach
    void reachTheDeployment() {
        messages = Messages.of(url);
    }

    @AfterEach
    void nothingPreparedNothingLeftOnTheQueues() {
        for (String queue : List.of(AckAfterCommitListener.QUEUE, PortableOrdersListener.QUEUE)) {
            Await.until(WAIT, "the queue " + queue + " to be empty", () -> messages.queued(queue) == 0);
        }
        assertEquals(0, TestDatabase.preparedTransactions(), "PostgreSQL holds no prepared transaction");
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("cases")
    void theMessageComesAgainAndIsProcessedOnce(Handler handler, FirstAttempt first) {
        String orderId = newOrderId();
        Map<String, String> properties = new HashMap<>(Map.of(Orders.ORDER_ID, orderId,
                Orders.BEHAVIOUR, first.behaviour));
        if (handler.via != null) {
            properties.put(AckAfterCommitListener.VIA, handler.via);
        }
        messages.send(handler.queue, properties, 1);

        Await.until(WAIT, "the redelivery of " + orderId + " to be processed",
                () -> TestDatabase.decisions(handler.scope, orderId, "PROCESSED") == 1
                        && markers(INBOX, handler.scope, orderId) == 1);

        assertEquals(2, handlerCalls(handler.consumer, orderId), "the first delivery and its redelivery: "
                + TestDatabase.deliveries(handler.consumer, orderId));
        assertEquals(1, invoices(handler.consumer, orderId), "the first attempt's invoice rolled back");
        assertEquals(1, markers(INBOX, handler.scope, orderId));
        // Reported once its transaction ended, which for a message-driven bean's own transaction can be after the
        // broker already redelivered.
        Await.count(WAIT, "reports of the first attempt as " + first.reported, 1,
                () -> TestDatabase.decisions(handler.scope, orderId, first.reported));
        assertEquals(1, TestDatabase.decisions(handler.scope, orderId, "PROCESSED"), "only the commit is processed");
        assertEquals(0, messages.deadLettered(Orders.ORDER_ID, orderId), "nothing dead-lettered");
        System.out.println("[nothing-lost] " + Server.current() + " " + handler + " " + first + ": deliveries "
                + TestDatabase.deliveries(handler.consumer, orderId));
    }
}
