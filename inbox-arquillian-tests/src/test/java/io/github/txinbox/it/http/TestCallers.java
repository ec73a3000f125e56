package io.github.txinbox.it.http;

import jakarta.annotation.Priority;
import jakarta.ws.rs.Priorities;
import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.container.ContainerRequestFilter;
import jakarta.ws.rs.core.SecurityContext;
import jakarta.ws.rs.ext.Provider;
import java.security.Principal;

/**
 * The test application's authentication, as a token filter does it: a request with the header {@value #HEADER} is
 * authenticated as the caller it names (its {@code SecurityContext} gets that principal); a request without it stays
 * anonymous.
 */
@Provider
@Priority(Priorities.AUTHENTICATION)
public class TestCallers implements ContainerRequestFilter {

    /** The header naming the caller. */
    public static final String HEADER = "X-Test-Caller";

    @Override
    public void filter(ContainerRequestContext request) {
        String caller = request.getHeaderString(HEADER);
        if (caller == null) {
            return;
        }
        Principal principal = () -> caller;
        boolean secure = request.getSecurityContext() != null && request.getSecurityContext().isSecure();
        request.setSecurityContext(new SecurityContext() {
            @Override
            public Principal getUserPrincipal() {
                return principal;
            }

            @Override
            public boolean isUserInRole(String role) {
                return false;
            }

            @Override
            public boolean isSecure() {
                return secure;
            }

            @Override
            public String getAuthenticationScheme() {
                return "test";
            }
        });
    }
}
