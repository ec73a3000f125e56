package io.github.txinbox.internal.http;

import io.github.txinbox.Idempotent;
import jakarta.ws.rs.Priorities;
import jakarta.ws.rs.container.DynamicFeature;
import jakarta.ws.rs.container.ResourceInfo;
import jakarta.ws.rs.core.FeatureContext;
import jakarta.ws.rs.ext.Provider;

/**
 * Registers {@link RequestCapture} for each resource method that {@link Idempotent @Idempotent} applies to (on the
 * method, or on its class), found by Jakarta REST's scan of the application like any provider. An application that
 * lists its classes in {@code Application.getClasses()} lists this one too.
 */
@Provider
public final class IdempotencyFeature implements DynamicFeature {

    @Override
    public void configure(ResourceInfo resource, FeatureContext context) {
        if (resource.getResourceMethod() == null || resource.getResourceClass() == null) {
            return;
        }
        if (resource.getResourceMethod().isAnnotationPresent(Idempotent.class)
                || resource.getResourceClass().isAnnotationPresent(Idempotent.class)) {
            // After authentication and authorization, so that a request they refuse is not fingerprinted; before
            // the filters and interceptors that read the entity.
            context.register(RequestCapture.class, Priorities.AUTHORIZATION + 100);
        }
    }
}
