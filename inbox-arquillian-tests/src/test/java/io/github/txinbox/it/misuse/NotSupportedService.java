package io.github.txinbox.it.misuse;

import io.github.txinbox.Inbox;
import jakarta.ejb.Stateless;
import jakarta.ejb.TransactionAttribute;
import jakarta.ejb.TransactionAttributeType;
import jakarta.jms.Message;

/** A method that runs without a transaction, and one that returns something the inbox cannot stand in for. */
@Stateless
public class NotSupportedService {

    @Inbox
    @TransactionAttribute(TransactionAttributeType.NOT_SUPPORTED)
    public void handle(Message message) {
    }

    @Inbox
    public String describe(Message message) {
        return "";
    }
}
