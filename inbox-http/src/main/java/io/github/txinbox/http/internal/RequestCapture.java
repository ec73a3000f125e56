package io.github.txinbox.http.internal;

import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.container.ContainerRequestFilter;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.SecurityContext;
import jakarta.ws.rs.ext.Providers;
import java.security.Principal;

/**
 * Prepares a request of an {@code @Idempotent} method for the interceptor, which sees the request only through the
 * servlet request: it starts the request's {@link RequestFingerprint} in place of its entity stream, and hands over
 * the application's {@link Providers}, which write the response's body to store it, and the caller's name. They
 * travel as request properties, which a servlet container keeps as the servlet request's attributes.
 * {@link IdempotencyFeature} registers it for each {@code @Idempotent} method; it reads no key and answers nothing, so
 * that the rules live in one place.
 */
public final class RequestCapture implements ContainerRequestFilter {

    /** The request property (a servlet request attribute) that holds the application's {@link Providers}. */
    public static final String PROVIDERS = RequestCapture.class.getName() + ".providers";

    /**
     * The request property (a servlet request attribute) that holds the name of the request's caller: the principal
     * of its {@code SecurityContext}, as authentication left it (this filter runs after the authentication and
     * authorization filters); absent for an anonymous request.
     */
    public static final String PRINCIPAL = RequestCapture.class.getName() + ".principal";

    @Context
    private Providers providers;

    @Override
    public void filter(ContainerRequestContext request) {
        String target = request.getUriInfo().getRequestUri().getRawPath();
        String query = request.getUriInfo().getRequestUri().getRawQuery();
        RequestFingerprint fingerprint = new RequestFingerprint(request.getMethod(),
                query == null ? target : target + '?' + query, request.getEntityStream());
        request.setEntityStream(fingerprint);
        request.setProperty(RequestFingerprint.PROPERTY, fingerprint);
        request.setProperty(PROVIDERS, providers);
        SecurityContext security = request.getSecurityContext();
        Principal caller = security == null ? null : security.getUserPrincipal();
        if (caller != null && caller.getName() != null && !caller.getName().isEmpty()) {
            request.setProperty(PRINCIPAL, caller.getName());
        }
    }
}
