package io.github.txinbox.it.portable;

import io.github.txinbox.it.crash.CrashPoint;
import io.github.txinbox.it.messaging.Orders;
import jakarta.ejb.MessageDriven;
import jakarta.inject.Inject;
import jakarta.jms.JMSException;
import jakarta.jms.Message;
import jakarta.jms.MessageListener;
import jakarta.transaction.TransactionManager;
import javax.naming.InitialContext;
import javax.naming.NamingException;

/**
 * The consumer of the queue {@value #QUEUE} in {@code KilledServerIT} and {@code XaDatabaseRestartIT}. With the
 * {@code behaviour} {@code hang-in-commit} (or {@code hold-in-commit}) it first enlists a {@link CrashPoint} that
 * blocks in the second phase of the commit, after the decision to commit is logged, until the test kills the server
 * (or releases it): through the server's {@link TransactionManager}, whose JNDI name is the system
 * property {@code txinbox.it.transactionManager} (servers that publish none cannot run that case).
 */
@MessageDriven(name = "PortableCrashListener")
public class PortableCrashListener implements MessageListener {

    /** The queue this bean consumes from. */
    public static final String QUEUE = "crash";

    @Inject
    PortableCrashHandler handler;

    @Override
    public void onMessage(Message message) {
        try {
            CrashPoint.Phase phase = CrashPoint.inCommit(message.getStringProperty(Orders.BEHAVIOUR));
            if (phase != null) {
                String name = System.getProperty("txinbox.it.transactionManager");
                TransactionManager manager = (TransactionManager) new InitialContext().lookup(name);
                manager.getTransaction().enlistResource(
                        new CrashPoint(message.getStringProperty(Orders.ORDER_ID), phase));
            }
            handler.handle(message);
        } catch (JMSException | NamingException | jakarta.transaction.RollbackException
                | jakarta.transaction.SystemException e) {
            throw new IllegalStateException(e);
        }
    }
}
