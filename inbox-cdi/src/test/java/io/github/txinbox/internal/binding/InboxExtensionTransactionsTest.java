package io.github.txinbox.internal.binding;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/**
 * Where neither the deployment nor the calling thread can look the transaction registry up (here, a plain JVM with no
 * naming service at all), the inbox's beans fail with a message that names the thread and what to do, instead of a
 * naming exception from deep inside the container.
 */
class InboxExtensionTransactionsTest {

    @Test
    void aThreadWithoutAComponentEnvironmentIsNamedWhenTheRegistryWasNotFoundAtDeployment() {
        InboxExtension extension = new InboxExtension();
        extension.findTransactions(null);

        IllegalStateException failure = assertThrows(IllegalStateException.class, extension::transactions);
        assertTrue(failure.getMessage().startsWith("The inbox cannot find java:comp/TransactionSynchronizationRegistry "
                + "on the thread " + Thread.currentThread().getName() + ", which has no component environment"),
                failure.getMessage());
        assertTrue(failure.getMessage().endsWith("call the @Inbox method from a thread the server manages"),
                failure.getMessage());
    }
}
