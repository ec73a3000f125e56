package io.github.txinbox;

/**
 * Thrown when {@link Inbox @Inbox} is used where its rules cannot apply: a method that returns neither {@code void}
 * nor {@link InboxResult}, that has no JMS message parameter and no resolver, that runs under bean-managed
 * transactions or {@code NOT_SUPPORTED}, or whose scope is not a valid key. Reported at deployment, as a definition
 * error that fails it. A method the library did not see at deployment (its class was not in a bean archive) fails each
 * call with an {@link IllegalStateException} instead.
 */
public class InboxDefinitionException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    /**
     * Creates the exception.
     *
     * @param message what is wrong, naming the bean and the method
     */
    public InboxDefinitionException(String message) {
        super(message);
    }
}
