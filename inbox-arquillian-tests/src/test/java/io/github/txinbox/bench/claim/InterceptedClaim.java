package io.github.txinbox.bench.claim;

import io.github.txinbox.Inbox;
import io.github.txinbox.MessageIdResolver;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.interceptor.InvocationContext;

/**
 * An {@code @Inbox} method that does nothing but be intercepted, in its caller's transaction: against
 * {@code InboxRepository.claim} called directly, what the two interceptors add to a claim.
 */
@ApplicationScoped
public class InterceptedClaim {

    /** The method's scope. */
    public static final String SCOPE = "bench-intercepted";

    /**
     * Claims the id through {@code @Inbox}, and does nothing more.
     *
     * @param id the message id, which {@link IdArgument} reads
     */
    @Inbox(scope = SCOPE, resolver = IdArgument.class)
    public void handle(String id) {
        // The claim is the whole work.
    }

    /** Reads the id from the method's only argument. */
    @ApplicationScoped
    public static class IdArgument implements MessageIdResolver {

        @Override
        public String messageId(InvocationContext invocation) {
            return (String) invocation.getParameters()[0];
        }
    }
}
