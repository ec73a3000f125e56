package io.github.txinbox.examples;

import io.github.txinbox.Inbox;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.jms.Message;
import jakarta.transaction.Transactional;

// tag::handler[]
@ApplicationScoped
public class OrderPlacedHandler {

    @Inject
    InvoiceService invoices;

    @Transactional // a transaction of its own: the marker and the invoice commit together
    @Inbox(key = "orderId")
    public void handle(Message message) {
        invoices.createFor(message); // runs once per order id
    }
}
// end::handler[]
