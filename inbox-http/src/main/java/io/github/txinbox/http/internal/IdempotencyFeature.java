package io.github.txinbox.http.internal;

import io.github.txinbox.http.Idempotent;
import jakarta.enterprise.inject.spi.CDI;
import jakarta.ws.rs.Priorities;
import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.container.ContainerRequestFilter;
import jakarta.ws.rs.container.DynamicFeature;
import jakarta.ws.rs.container.ResourceInfo;
import jakarta.ws.rs.core.FeatureContext;
import jakarta.ws.rs.ext.Provider;
import java.lang.reflect.Method;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Registers {@link RequestCapture} for each resource method that {@link io.github.txinbox.http.Idempotent @Idempotent} was bound to, as the
 * inbox's extension says ({@link IdempotentMethods}), found by Jakarta REST's scan of the application like any
 * provider. An application that lists its classes in {@code Application.getClasses()} lists this one too.
 *
 * <p>A method that carries {@code @Idempotent} but that CDI did not bind (its class is no CDI bean, so no interceptor
 * runs, {@code @Transactional} included) would run once per copy of a request: such a method gets a filter that refuses
 * every request with a 500 instead, before the method runs, and the deployment logs why.
 */
@Provider
public final class IdempotencyFeature implements DynamicFeature {

    private static final Logger LOG = Logger.getLogger(Idempotent.class.getName());

    /** After authentication and authorization, so that a request they refuse is not fingerprinted. */
    private static final int PRIORITY = Priorities.AUTHORIZATION + 100;

    @Override
    public void configure(ResourceInfo resource, FeatureContext context) {
        Method method = resource.getResourceMethod();
        Class<?> type = resource.getResourceClass();
        if (method == null || type == null) {
            return;
        }
        Boolean bound = bound(type, method);
        boolean annotated = annotated(type, method);
        if (Boolean.TRUE.equals(bound) || bound == null && annotated) {
            context.register(RequestCapture.class, PRIORITY);
        } else if (annotated) {
            String where = type.getName() + "." + method.getName();
            LOG.warning(() -> "@Idempotent on " + where + " does not apply: CDI did not bind it, so no interceptor "
                    + "runs for it. Make the resource class a CDI bean (a scope such as @RequestScoped) or a session "
                    + "bean; until then every request to it is refused with 500");
            context.register(new NotApplied(where), PRIORITY);
        }
    }

    /** What the inbox's extension says of the method; {@code null} where it cannot be asked. */
    private static Boolean bound(Class<?> type, Method method) {
        try {
            return CDI.current().select(IdempotentMethods.class).get().bound(type, method);
        } catch (RuntimeException e) {
            LOG.log(Level.FINE, e, () -> "The inbox's extension cannot be asked about " + type.getName());
            return null;
        }
    }

    private static boolean annotated(Class<?> type, Method method) {
        if (method.isAnnotationPresent(Idempotent.class) || type.isAnnotationPresent(Idempotent.class)) {
            return true;
        }
        try {
            return type.getMethod(method.getName(), method.getParameterTypes()).isAnnotationPresent(Idempotent.class);
        } catch (NoSuchMethodException e) {
            return false;
        }
    }

    /** Refuses every request to a method whose {@code @Idempotent} CDI did not bind. */
    static final class NotApplied implements ContainerRequestFilter {

        private final String where;

        NotApplied(String where) {
            this.where = where;
        }

        @Override
        public void filter(ContainerRequestContext request) {
            request.abortWith(Problems.NOT_APPLIED.answer("The server cannot keep this request from running twice, "
                    + "so it did not run it. Tell the service's operators: @Idempotent on " + where
                    + " is not applied").build());
        }
    }
}
