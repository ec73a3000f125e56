package io.github.txinbox.it.misuse;

import io.github.txinbox.Inbox;
import jakarta.ejb.ActivationConfigProperty;
import jakarta.ejb.MessageDriven;
import jakarta.ejb.TransactionManagement;
import jakarta.ejb.TransactionManagementType;
import jakarta.jms.Message;
import jakarta.jms.MessageListener;

/** Bean-managed transactions: no container transaction to write the marker in. */
@TransactionManagement(TransactionManagementType.BEAN)
@MessageDriven(activationConfig = {
        @ActivationConfigProperty(propertyName = "resourceAdapter", propertyValue = "test-artemis-rar"),
        @ActivationConfigProperty(propertyName = "destinationType", propertyValue = "jakarta.jms.Queue"),
        @ActivationConfigProperty(propertyName = "destination", propertyValue = "orders"),
        @ActivationConfigProperty(propertyName = "useJNDI", propertyValue = "false")})
public class BeanManagedListener implements MessageListener {

    @Override
    @Inbox
    public void onMessage(Message message) {
    }
}
