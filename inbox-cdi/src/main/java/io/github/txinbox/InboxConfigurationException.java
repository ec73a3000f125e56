package io.github.txinbox;

/**
 * Thrown when a setting of the library (given through MicroProfile Config or as a system property) is not valid, or
 * contradicts the application: the application's start fails with it, naming the property and its value.
 */
public class InboxConfigurationException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    /**
     * Creates the exception.
     *
     * @param message what is wrong, naming the property and its value
     */
    public InboxConfigurationException(String message) {
        super(message);
    }
}
