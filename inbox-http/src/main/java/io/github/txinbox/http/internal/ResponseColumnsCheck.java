package io.github.txinbox.http.internal;

import io.github.txinbox.spi.TableCheck;
import jakarta.enterprise.context.Dependent;
import jakarta.inject.Inject;

/**
 * Adds the response columns to the core's table check, where the application has {@code @Idempotent} methods: at
 * start-up and in the readiness check, a table without them fails as a table without the markers' columns does.
 */
@Dependent
public class ResponseColumnsCheck implements TableCheck {

    @Inject
    private IdempotentExtension extension;

    @Inject
    private ResponseStore store;

    @Override
    public void check() {
        if (extension.storesResponses()) {
            store.verifyColumns();
        }
    }
}
