package io.github.txinbox.it.crash;

import io.github.txinbox.it.messaging.Orders;
import jakarta.annotation.Resource;
import jakarta.ejb.ActivationConfigProperty;
import jakarta.ejb.MessageDriven;
import jakarta.inject.Inject;
import jakarta.jms.JMSException;
import jakarta.jms.Message;
import jakarta.jms.MessageListener;
import jakarta.transaction.RollbackException;
import jakarta.transaction.SystemException;
import jakarta.transaction.TransactionManager;

/**
 * The consumer of the queue {@code crash}. Before the {@link CrashHandler} (and so before the inbox claim) it
 * enlists a {@link CrashPoint} in the transaction when the message's {@code behaviour} is {@code hang-in-commit} (it
 * blocks in the second phase until the test kills the server) or {@code hold-in-commit} (until the test releases it),
 * so that the crash point is the first resource after the broker's to be committed.
 */
@MessageDriven(activationConfig = {
        @ActivationConfigProperty(propertyName = "resourceAdapter", propertyValue = "test-artemis-rar"),
        @ActivationConfigProperty(propertyName = "destinationType", propertyValue = "jakarta.jms.Queue"),
        @ActivationConfigProperty(propertyName = "destination", propertyValue = "crash"),
        @ActivationConfigProperty(propertyName = "useJNDI", propertyValue = "false"),
        @ActivationConfigProperty(propertyName = "maxSession", propertyValue = "2")})
public class CrashListener implements MessageListener {

    @Inject
    CrashHandler handler;

    @Resource(lookup = "java:appserver/TransactionManager")
    TransactionManager transactionManager;

    @Override
    public void onMessage(Message message) {
        try {
            String orderId = message.getStringProperty(Orders.ORDER_ID);
            CrashPoint.Phase phase = CrashPoint.inCommit(message.getStringProperty(Orders.BEHAVIOUR));
            if (phase != null) {
                transactionManager.getTransaction().enlistResource(new CrashPoint(orderId, phase));
            }
            handler.handle(message);
        } catch (JMSException | RollbackException | SystemException e) {
            throw new IllegalStateException(e);
        }
    }
}
