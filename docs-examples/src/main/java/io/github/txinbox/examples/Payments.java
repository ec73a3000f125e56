package io.github.txinbox.examples;

import io.github.txinbox.Inbox;
import io.github.txinbox.InboxResult;
import jakarta.ejb.Stateless;
import jakarta.ejb.TransactionAttribute;
import jakarta.ejb.TransactionAttributeType;
import jakarta.inject.Inject;

// tag::payments[]
@Stateless
@TransactionAttribute(TransactionAttributeType.MANDATORY) // always in its caller's transaction
public class Payments {

    @Inject
    Ledger ledger;

    @Inbox(scope = "payments", resolver = PaymentIdResolver.class)
    public InboxResult record(PaymentReceived payment) {
        if (payment.amount() <= 0) {
            return InboxResult.skipped("nothing to book for " + payment.amount()); // the marker commits
        }
        if (!ledger.isOpen(payment.orderId())) {
            return InboxResult.retry("the order's ledger is closed for the night"); // rolls back; the broker redelivers
        }
        ledger.book(payment.orderId(), payment.amount());
        return InboxResult.processed();
    }
}
// end::payments[]
