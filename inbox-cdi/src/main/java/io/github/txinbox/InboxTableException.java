package io.github.txinbox;

/**
 * Thrown when the inbox table is missing, or lacks a column or the primary key the inbox needs. The message names
 * the table, says what is wrong and shows the DDL that creates the table as the inbox expects it.
 */
public class InboxTableException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    /** What is wrong, naming the table, without the DDL. */
    private final String problem;

    /**
     * Creates the exception, its message the problem followed by the DDL.
     *
     * @param problem what is wrong, naming the table
     * @param ddl     the statements that create the table as the inbox expects it
     */
    public InboxTableException(String problem, String ddl) {
        super(problem + ". Create it with:\n" + ddl);
        this.problem = problem;
    }

    /**
     * Returns what is wrong, naming the table, without the DDL: what a health check reports.
     *
     * @return the problem
     */
    public String problem() {
        return problem;
    }
}
