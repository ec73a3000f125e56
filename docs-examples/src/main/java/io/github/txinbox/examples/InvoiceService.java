package io.github.txinbox.examples;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.jms.Message;

/** The application's own service that the examples' handlers call. */
@ApplicationScoped
public class InvoiceService {

    /**
     * Creates the invoice of the order a message carries, in the caller's transaction.
     *
     * @param message the order's message
     */
    public void createFor(Message message) {
        // the application's writes, through its own EntityManager
    }
}
