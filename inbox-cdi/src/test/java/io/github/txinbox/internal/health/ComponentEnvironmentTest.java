package io.github.txinbox.internal.health;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import jakarta.enterprise.inject.CreationException;
import jakarta.enterprise.inject.Instance;
import jakarta.enterprise.inject.spi.Bean;
import java.util.function.Supplier;
import javax.naming.NameNotFoundException;
import org.junit.jupiter.api.Test;

class ComponentEnvironmentTest {

    @Test
    void aVerifierWithNothingInjectedIsNoEnvironment() {
        assertNull(ComponentEnvironment.verifier(handle(TableVerifier::new)));
    }

    @Test
    void anUnboundNameIsNoEnvironment() {
        assertNull(ComponentEnvironment.verifier(handle(() -> {
            throw new CreationException(new IllegalStateException(
                    new NameNotFoundException("java:comp/env/txinbox/persistence-context")));
        })));
    }

    @Test
    void anyOtherFailureIsAnErrorWithItsCause() {
        IllegalArgumentException cause = new IllegalArgumentException("no persistence unit named orders");
        IllegalStateException error = assertThrows(IllegalStateException.class,
                () -> ComponentEnvironment.verifier(handle(() -> {
                    throw new CreationException(cause);
                })));
        assertEquals("The container could not give the inbox its persistence unit and transaction registry: "
                + "java.lang.IllegalArgumentException: no persistence unit named orders", error.getMessage());
        assertSame(cause, error.getCause().getCause());
    }

    private static Instance.Handle<TableVerifier> handle(Supplier<TableVerifier> creation) {
        return new Instance.Handle<>() {
            @Override
            public TableVerifier get() {
                return creation.get();
            }

            @Override
            public Bean<TableVerifier> getBean() {
                return null;
            }

            @Override
            public void destroy() {
            }

            @Override
            public void close() {
            }
        };
    }
}
