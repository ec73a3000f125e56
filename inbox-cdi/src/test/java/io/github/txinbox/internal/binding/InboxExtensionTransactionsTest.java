package io.github.txinbox.internal.binding;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.txinbox.InboxRepository;
import jakarta.inject.Named;
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
        extension.findTransactionsAtDeployment(null);

        IllegalStateException failure = assertThrows(IllegalStateException.class, extension::transactions);
        assertTrue(failure.getMessage().startsWith("The inbox cannot find java:comp/TransactionSynchronizationRegistry "
                + "on the thread " + Thread.currentThread().getName() + ", which has no component environment"),
                failure.getMessage());
        assertTrue(failure.getMessage().endsWith("call the @Inbox method from a thread the server manages"),
                failure.getMessage());
    }

    /** InboxRepository, a public type, names the registry's bean by a literal of its own: the two must agree. */
    @Test
    void theRepositoryInjectsTheRegistryByTheNameTheExtensionGivesIt() throws NoSuchFieldException {
        Named named = InboxRepository.class.getDeclaredField("transactions").getAnnotation(Named.class);
        assertEquals(InboxExtension.TRANSACTIONS, named.value());
    }
}
