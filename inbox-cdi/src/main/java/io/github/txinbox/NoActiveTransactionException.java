package io.github.txinbox;

/**
 * Thrown when an inbox operation is called without an active JTA transaction, for example from a bean-managed
 * message-driven bean, under {@code NOT_SUPPORTED}, or in a transaction already marked for rollback.
 *
 * <p>The inbox writes its markers in the caller's transaction so that the handler's writes and the marker commit or
 * roll back together; without such a transaction it cannot give that guarantee, so it refuses to run.
 */
public class NoActiveTransactionException extends IllegalStateException {

    private static final long serialVersionUID = 1L;

    private final String operation;
    private final int status;

    /**
     * Creates the exception for an operation and the transaction status that was seen.
     *
     * @param operation the operation that was refused, such as {@code "InboxRepository.claim"}
     * @param status    the status reported by the transaction synchronization registry, one of the
     *                  {@link jakarta.transaction.Status} constants
     */
    public NoActiveTransactionException(String operation, int status) {
        super(operation + " requires an active JTA transaction, but the transaction status is "
                + TransactionStatus.describe(status)
                + "; call it from a method with a container-managed transaction (REQUIRED or MANDATORY)");
        this.operation = operation;
        this.status = status;
    }

    /**
     * Returns the operation that was refused.
     *
     * @return the operation, such as {@code "InboxRepository.claim"}
     */
    public String operation() {
        return operation;
    }

    /**
     * Returns the transaction status that was seen.
     *
     * @return one of the {@link jakarta.transaction.Status} constants
     */
    public int status() {
        return status;
    }
}
