package io.github.txinbox;

/**
 * Thrown when an {@link Inbox @Inbox} method returned normally but its transaction will not commit (the method, or a
 * call it made, marked it for rollback), and that transaction is not known to be its caller's: the transaction began
 * with this call and ends when it returns, so a normal return would let the caller (a message-driven bean without a
 * transaction) acknowledge a message whose work rolled back. The exception makes the broker deliver the message
 * again.
 */
public class InboxRolledBackException extends IllegalStateException {

    private static final long serialVersionUID = 1L;

    /**
     * Creates the exception.
     *
     * @param message what rolled back, naming the bean, the method, the scope and the message id
     */
    public InboxRolledBackException(String message) {
        super(message);
    }
}
