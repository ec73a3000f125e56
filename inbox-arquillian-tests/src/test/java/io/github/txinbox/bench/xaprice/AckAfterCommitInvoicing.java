package io.github.txinbox.bench.xaprice;

import io.github.txinbox.Inbox;
import io.github.txinbox.bench.throughput.Invoicing;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.jms.Message;
import jakarta.transaction.Transactional;

/** Writes the invoice of {@link InboxAckAfterCommitListener}'s message in a transaction of its own, with the inbox. */
@ApplicationScoped
public class AckAfterCommitInvoicing {

    @Inject
    Invoicing invoicing;

    /**
     * Writes the invoice, once per message.
     *
     * @param message the message
     */
    @Transactional
    @Inbox
    public void invoice(Message message) {
        invoicing.invoice(InboxAckAfterCommitListener.QUEUE, message);
    }
}
