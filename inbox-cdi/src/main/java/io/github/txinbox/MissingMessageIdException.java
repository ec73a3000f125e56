package io.github.txinbox;

/**
 * Thrown when an {@link Inbox @Inbox} method is invoked with a message that has no id under the configured key (the
 * property is missing or blank, or the resolver returned none). The transaction is marked for rollback, so the broker
 * redelivers the message and, after its attempts, moves it to its dead-letter queue: nothing is processed without an
 * id, and nothing is dropped silently.
 */
public class MissingMessageIdException extends IllegalStateException {

    private static final long serialVersionUID = 1L;

    /**
     * Creates the exception.
     *
     * @param message what is missing, naming the bean, the method and the key
     */
    public MissingMessageIdException(String message) {
        super(message);
    }
}
