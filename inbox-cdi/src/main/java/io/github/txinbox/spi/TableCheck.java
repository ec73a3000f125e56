package io.github.txinbox.spi;

/**
 * A check of what a module needs of the inbox table beyond the markers' columns (inbox-http's response columns), run
 * with the core's own table check: when the application starts and by the readiness check, in the same transaction and
 * the same component environment. Implement it as a {@code @Dependent} bean.
 */
public interface TableCheck {

    /**
     * Checks the table, in an active JTA transaction, with the application's {@code InboxRepository}'s table.
     *
     * @throws io.github.txinbox.InboxTableException when the table will not do, naming what differs and the DDL that
     *                                               mends it
     */
    void check();
}
