package io.github.txinbox.it.http;

import io.github.txinbox.it.crash.CrashPoint;
import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.container.ContainerResponseContext;
import jakarta.ws.rs.container.ContainerResponseFilter;
import jakarta.ws.rs.ext.Provider;

/**
 * Stops the server's thread after the endpoint's transaction committed and before the response is written, for a
 * request whose behaviour is {@value #BEHAVIOUR}: the test kills the server there, so the client never gets the
 * response to a request whose effect committed.
 */
@Provider
public class HangAfterCommit implements ContainerResponseFilter {

    /** The behaviour that stops here. */
    public static final String BEHAVIOUR = "hang-after-commit";

    @Override
    public void filter(ContainerRequestContext request, ContainerResponseContext response) {
        if (BEHAVIOUR.equals(request.getHeaderString(OrderDesk.BEHAVIOUR))
                && request.getProperty(OrderDesk.ORDER_ATTRIBUTE) instanceof String orderId) {
            CrashPoint.hangOnce(orderId);
        }
    }
}
