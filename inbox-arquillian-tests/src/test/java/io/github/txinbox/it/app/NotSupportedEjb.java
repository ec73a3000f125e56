package io.github.txinbox.it.app;

import io.github.txinbox.InboxRepository;
import jakarta.ejb.Stateless;
import jakarta.ejb.TransactionAttribute;
import jakarta.ejb.TransactionAttributeType;
import jakarta.inject.Inject;

/** Calls the inbox from an EJB method that runs without a transaction. */
@Stateless
public class NotSupportedEjb {

    @Inject
    private InboxRepository inbox;

    @TransactionAttribute(TransactionAttributeType.NOT_SUPPORTED)
    public boolean claim(String scope, String messageId) {
        return inbox.claim(scope, messageId);
    }
}
