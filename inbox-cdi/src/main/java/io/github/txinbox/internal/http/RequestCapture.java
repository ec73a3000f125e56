package io.github.txinbox.internal.http;

import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.container.ContainerRequestFilter;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.ext.Providers;

/**
 * Prepares a request of an {@code @Idempotent} method for the interceptor, which sees the request only through the
 * servlet request: it starts the request's {@link RequestFingerprint} in place of its entity stream, and hands over
 * the application's {@link Providers}, which write the response's body to store it. Both travel as request properties,
 * which a servlet container keeps as the servlet request's attributes. {@link IdempotencyFeature} registers it for each
 * {@code @Idempotent} method; it reads no key and answers nothing, so that the rules live in one place.
 */
public final class RequestCapture implements ContainerRequestFilter {

    /** The request property (a servlet request attribute) that holds the application's {@link Providers}. */
    public static final String PROVIDERS = RequestCapture.class.getName() + ".providers";

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
    }
}
