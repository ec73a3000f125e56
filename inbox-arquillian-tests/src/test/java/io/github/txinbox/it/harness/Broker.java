package io.github.txinbox.it.harness;

import jakarta.jms.JMSContext;
import jakarta.jms.JMSException;
import jakarta.jms.Message;
import jakarta.jms.Queue;
import jakarta.jms.QueueBrowser;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.activemq.artemis.api.core.management.ActiveMQServerControl;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.activemq.artemis.api.core.RoutingType;
import org.apache.activemq.artemis.api.core.SimpleString;
import org.apache.activemq.artemis.api.core.client.ActiveMQClient;
import org.apache.activemq.artemis.api.core.client.ClientMessage;
import org.apache.activemq.artemis.api.core.client.ClientProducer;
import org.apache.activemq.artemis.api.core.client.ClientSession;
import org.apache.activemq.artemis.api.core.client.ClientSessionFactory;
import org.apache.activemq.artemis.api.core.client.ServerLocator;
import org.apache.activemq.artemis.jms.client.ActiveMQConnectionFactory;

/** The test client's side of the broker: sends messages, and looks into queues. */
public final class Broker {

    private Broker() {
    }

    /**
     * Sends a text message with string properties to a queue.
     *
     * @param queue      the queue
     * @param properties the message's string properties
     * @return the message's JMSMessageID
     */
    public static String send(String queue, Map<String, String> properties) {
        return send(queue, properties, 1);
    }

    /**
     * Sends copies of a text message (each a message of its own, with its own JMSMessageID) in one burst.
     *
     * @param queue      the queue
     * @param properties the messages' string properties
     * @param copies     how many to send
     * @return the last message's JMSMessageID
     */
    public static String send(String queue, Map<String, String> properties, int copies) {
        return sendEach(queue, Collections.nCopies(copies, properties));
    }

    /**
     * Sends one text message per set of string properties, in one burst over one connection.
     *
     * @param queue    the queue
     * @param messages the properties of each message
     * @return the last message's JMSMessageID
     */
    public static String sendEach(String queue, List<Map<String, String>> messages) {
        return sendEach(ArtemisSession.url(), queue, messages);
    }

    /**
     * Sends one text message per set of string properties to a queue of the broker at a URL, in one burst over one
     * connection.
     *
     * @param url      the broker's URL
     * @param queue    the queue
     * @param messages the properties of each message
     * @return the last message's JMSMessageID
     */
    public static String sendEach(String url, String queue, List<Map<String, String>> messages) {
        return send(url, queue, messages, JMSContext.AUTO_ACKNOWLEDGE);
    }

    /**
     * Sends one text message per set of string properties to a queue of the broker at a URL in one local
     * transaction: consumers see none of them until all are there.
     *
     * @param url      the broker's URL
     * @param queue    the queue
     * @param messages the properties of each message
     */
    public static void sendInOneTransaction(String url, String queue, List<Map<String, String>> messages) {
        send(url, queue, messages, JMSContext.SESSION_TRANSACTED);
    }

    private static String send(String url, String queue, List<Map<String, String>> messages, int sessionMode) {
        try (ActiveMQConnectionFactory factory = new ActiveMQConnectionFactory(url);
                JMSContext context = factory.createContext(sessionMode)) {
            String id = null;
            for (Map<String, String> properties : messages) {
                Message message = context.createTextMessage("order");
                for (Map.Entry<String, String> property : properties.entrySet()) {
                    message.setStringProperty(property.getKey(), property.getValue());
                }
                context.createProducer().send(context.createQueue(queue), message);
                id = message.getJMSMessageID();
            }
            if (sessionMode == JMSContext.SESSION_TRANSACTED) {
                context.commit();
            }
            return id;
        } catch (JMSException e) {
            throw new IllegalStateException("Could not send to " + queue, e);
        }
    }

    /**
     * Sends a copy of a message that was sent before, with the same JMSMessageID: what a consumer sees when the broker
     * redelivers a message whose transaction committed but whose acknowledgement was lost. Through Artemis's core
     * API, since a JMS producer always gives a message an id of its own.
     *
     * @param queue      the queue
     * @param messageId  the JMSMessageID the message had, as {@link #send} returned it
     * @param properties the message's string properties
     */
    public static void resend(String queue, String messageId, Map<String, String> properties) {
        UUID uuid = UUID.fromString(messageId.substring("ID:".length()));
        byte[] bytes = ByteBuffer.allocate(16).putLong(uuid.getMostSignificantBits())
                .putLong(uuid.getLeastSignificantBits()).array();
        try (ServerLocator locator = ActiveMQClient.createServerLocator(ArtemisSession.url());
                ClientSessionFactory factory = locator.createSessionFactory();
                ClientSession session = factory.createSession(true, true)) {
            ClientMessage message = session.createMessage(org.apache.activemq.artemis.api.core.Message.TEXT_TYPE,
                    true);
            message.setUserID(new org.apache.activemq.artemis.utils.UUID(
                    org.apache.activemq.artemis.utils.UUID.TYPE_TIME_BASED, bytes));
            message.setRoutingType(RoutingType.ANYCAST);
            message.getBodyBuffer().writeNullableSimpleString(SimpleString.of("order"));
            for (Map.Entry<String, String> property : properties.entrySet()) {
                message.putStringProperty(property.getKey(), property.getValue());
            }
            try (ClientProducer producer = session.createProducer(queue)) {
                producer.send(message);
            }
        } catch (Exception e) {
            throw new IllegalStateException("Could not send to " + queue, e);
        }
    }

    /**
     * Counts the messages added to a queue since the broker started.
     *
     * @param queue the queue
     * @return the count
     */
    public static long added(String queue) {
        return ArtemisSession.server().locateQueue(SimpleString.of(queue)).getMessagesAdded();
    }

    /**
     * Waits until a queue holds no message: none waiting, none scheduled for redelivery, none being delivered,
     * twice in a row.
     *
     * @param queue   the queue
     * @param timeout how long to wait at most
     * @throws AssertionError when the queue is not drained in time
     */
    public static void awaitDrained(String queue, Duration timeout) {
        org.apache.activemq.artemis.core.server.Queue q =
                ArtemisSession.server().locateQueue(SimpleString.of(queue));
        Await.until(timeout, "queue " + queue + " to drain", () -> q.getMessageCount() == 0
                && q.getScheduledCount() == 0 && q.getDeliveringCount() == 0, 2);
    }

    /**
     * Counts the messages in a queue that match a selector, without consuming them.
     *
     * @param queue    the queue
     * @param selector a JMS message selector
     * @return how many match
     */
    public static int count(String queue, String selector) {
        try (ActiveMQConnectionFactory factory = new ActiveMQConnectionFactory(ArtemisSession.url());
                JMSContext context = factory.createContext()) {
            Queue destination = context.createQueue(queue);
            try (QueueBrowser browser = context.createBrowser(destination, selector)) {
                return Collections.list(browser.getEnumeration()).size();
            }
        } catch (JMSException e) {
            throw new IllegalStateException("Could not browse " + queue, e);
        }
    }

    private static final Pattern BASE64_XID = Pattern.compile("base64: (\\S+)");

    /**
     * Counts the transaction branches prepared in the test broker and neither committed nor rolled back.
     *
     * @return the count
     */
    public static int preparedBranches() {
        return ArtemisSession.server().getResourceManager().getPreparedTransactions().size();
    }

    /**
     * Rolls back the one transaction branch left prepared in the test broker, as its administrator would.
     *
     * @throws AssertionError when the broker holds no prepared branch, or several
     */
    public static void rollBackThePreparedBranch() throws Exception {
        ActiveMQServerControl control = ArtemisSession.server().getActiveMQServerControl();
        String[] prepared = control.listPreparedTransactions();
        if (prepared.length != 1) {
            throw new AssertionError("Expected one prepared branch in the broker, found " + prepared.length + ": "
                    + String.join("\n", prepared));
        }
        if (!rollBackPrepared(control, prepared[0])) {
            throw new AssertionError("The broker did not roll back " + prepared[0]);
        }
    }

    /**
     * Rolls back a transaction branch left prepared in a broker, as an operator would after a crash.
     *
     * @param control the broker's management
     * @param entry   an entry of {@code listPreparedTransactions()}, which holds the Xid in base64
     * @return whether the broker rolled it back
     */
    public static boolean rollBackPrepared(ActiveMQServerControl control, String entry) throws Exception {
        Matcher matcher = BASE64_XID.matcher(entry);
        if (!matcher.find()) {
            throw new AssertionError("No base64 Xid in " + entry);
        }
        return control.rollbackPreparedTransaction(matcher.group(1));
    }
}
