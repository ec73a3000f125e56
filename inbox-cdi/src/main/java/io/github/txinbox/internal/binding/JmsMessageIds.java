package io.github.txinbox.internal.binding;

import jakarta.jms.JMSException;
import jakarta.jms.Message;

/**
 * Reads message ids from JMS messages. Kept apart so that the JMS API is loaded only when a JMS message is handled:
 * the rest of the library also runs where the platform has no JMS.
 */
final class JmsMessageIds {

    private static final String MESSAGE_TYPE = "jakarta.jms.Message";

    private JmsMessageIds() {
    }

    /** Returns the id under the key: the {@code JMSMessageID} for an empty key, else that string property. */
    static String read(Object message, String key) throws JMSException {
        Message jms = (Message) message;
        return key.isEmpty() ? jms.getJMSMessageID() : jms.getStringProperty(key);
    }

    /** Whether the type is {@code jakarta.jms.Message} or one of its subtypes, found by name without loading JMS. */
    static boolean isMessage(Class<?> type) {
        if (type == null) {
            return false;
        }
        if (type.getName().equals(MESSAGE_TYPE)) {
            return true;
        }
        for (Class<?> parent : type.getInterfaces()) {
            if (isMessage(parent)) {
                return true;
            }
        }
        return isMessage(type.getSuperclass());
    }
}
