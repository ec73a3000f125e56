package io.github.txinbox.ejb;

import jakarta.ejb.ApplicationException;

/**
 * Thrown when {@link InboxPurger#purgeExpired} is called with a retention or batch size out of range. An application
 * exception, so that the caller receives it as it is (an {@link IllegalArgumentException}), not wrapped in an
 * {@link jakarta.ejb.EJBException}.
 */
@ApplicationException(rollback = true)
public class InvalidPurgeArgumentException extends IllegalArgumentException {

    private static final long serialVersionUID = 1L;

    /**
     * Creates the exception.
     *
     * @param cause the check that failed
     */
    public InvalidPurgeArgumentException(IllegalArgumentException cause) {
        super(cause.getMessage(), cause);
    }
}
