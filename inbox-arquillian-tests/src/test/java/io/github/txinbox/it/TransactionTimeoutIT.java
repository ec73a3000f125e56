package io.github.txinbox.it;

import static io.github.txinbox.it.app.TestDatabase.INBOX;
import static io.github.txinbox.it.app.TestDatabase.handlerCalls;
import static io.github.txinbox.it.app.TestDatabase.markers;
import static io.github.txinbox.it.app.TestDatabase.queryLong;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.github.txinbox.it.app.TestDatabase;
import io.github.txinbox.it.harness.Broker;
import io.github.txinbox.it.harness.Deployments;
import io.github.txinbox.it.messaging.Orders;
import io.github.txinbox.it.timeout.TimeoutListener;
import java.time.Duration;
import java.util.Map;
import java.util.UUID;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The JTA timeout fires while the handler runs: the transaction manager marks the transaction for rollback, the
 * container rolls it back when the handler returns (invoice and marker with it), the broker redelivers, and the
 * redelivery is processed once. The timeout (2 s) is the MDB's {@code cmt-timeout-in-seconds}; Payara's
 * transaction manager looks for expired transactions every 10 s, so the handler waits up to
 * {@value TimeoutListener#MAX_WAIT_SECONDS} s for it.
 */
@ExtendWith(ArquillianExtension.class)
class TransactionTimeoutIT {

    @Deployment(testable = false)
    static WebArchive deployment() {
        return Deployments.war(TransactionTimeoutIT.class, Orders.class)
                .addPackage(TimeoutListener.class.getPackage())
                .addAsWebInfResource("timeout-glassfish-ejb-jar.xml", "glassfish-ejb-jar.xml");
    }

    @Test
    void aTimedOutTransactionRollsBackAndTheRedeliveryIsProcessedOnce() {
        String orderId = "timeout-" + UUID.randomUUID();
        Broker.send("timeout", Map.of(Orders.ORDER_ID, orderId));
        Broker.awaitDrained("timeout", Duration.ofSeconds(TimeoutListener.MAX_WAIT_SECONDS + 30));

        assertEquals(1, handlerCalls(TimeoutListener.EXPIRED, orderId),
                "the first delivery saw its transaction time out");
        assertEquals(2, handlerCalls(TimeoutListener.SCOPE, orderId), "the timed-out delivery was redelivered");
        assertEquals(1, queryLong("SELECT count(*) FROM " + TestDatabase.SCHEMA
                + ".invoice WHERE consumer = ? AND orderid = ?", TimeoutListener.SCOPE, orderId));
        assertEquals(1, markers(INBOX, TimeoutListener.SCOPE, orderId));
    }
}
