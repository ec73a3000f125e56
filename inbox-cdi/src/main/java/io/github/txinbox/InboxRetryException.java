package io.github.txinbox;

/**
 * Thrown by an {@link Inbox @Inbox} method to have its message delivered again: the inbox marks the transaction for
 * rollback (the method's writes and the marker roll back together) and, inside the caller's transaction, returns
 * normally, without a stack trace in the log. Equivalent to returning {@link InboxResult#retry(String)}. The inbox
 * throws it out of the method instead with {@link Inbox#rethrowRetry()}, and wherever the method's transaction is not
 * known to be its caller's (it began with the call), so that the caller does not acknowledge the message.
 */
public class InboxRetryException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    /**
     * Creates the exception.
     *
     * @param reason why the message should be retried, for the log
     */
    public InboxRetryException(String reason) {
        super(reason);
    }

    /**
     * Creates the exception with its cause.
     *
     * @param reason why the message should be retried, for the log
     * @param cause  what made the attempt fail
     */
    public InboxRetryException(String reason, Throwable cause) {
        super(reason, cause);
    }
}
