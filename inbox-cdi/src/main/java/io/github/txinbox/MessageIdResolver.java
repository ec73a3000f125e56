package io.github.txinbox;

import jakarta.interceptor.InvocationContext;

/**
 * Computes the message id of an {@link Inbox @Inbox} invocation, for a method whose message is not a JMS message or
 * whose id must be derived from its content. Implement it as a CDI bean and name its class in
 * {@link Inbox#resolver()}.
 */
public interface MessageIdResolver {

    /**
     * Returns the message id of this invocation.
     *
     * @param invocation the intercepted invocation: its method, target and parameters
     * @return the id; {@code null} or blank when the message has none, which the inbox answers with
     *         {@link MissingMessageIdException}
     */
    String messageId(InvocationContext invocation);
}
