package io.github.txinbox.examples;

import jakarta.enterprise.context.ApplicationScoped;

/** The application's ledger, which the payments example books into. */
@ApplicationScoped
public class Ledger {

    /**
     * Tells whether an order's ledger takes bookings now.
     *
     * @param orderId the order
     * @return true when it does
     */
    public boolean isOpen(String orderId) {
        return true;
    }

    /**
     * Books an amount for an order, in the caller's transaction.
     *
     * @param orderId the order
     * @param amount  the amount, in cents
     */
    public void book(String orderId, long amount) {
        // the application's writes
    }
}
