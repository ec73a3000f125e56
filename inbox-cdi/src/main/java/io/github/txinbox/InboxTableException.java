package io.github.txinbox;

/**
 * Thrown when the inbox table is missing, or lacks a column or the primary key the inbox needs. The message names
 * the table, says what is wrong and shows the DDL that creates the table as the inbox expects it.
 */
public class InboxTableException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    /**
     * Creates the exception.
     *
     * @param message what is wrong, naming the table
     */
    public InboxTableException(String message) {
        super(message);
    }
}
