package io.github.txinbox.it.portable;

import jakarta.jms.ConnectionFactory;
import jakarta.jms.JMSContext;
import jakarta.jms.JMSException;
import jakarta.jms.Message;
import jakarta.jms.Queue;
import jakarta.jms.QueueBrowser;
import jakarta.servlet.annotation.WebServlet;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.Collections;
import java.util.Map;
import javax.naming.InitialContext;
import javax.naming.NamingException;

/**
 * The test client's way into the server's own broker, for the servers whose broker runs inside them.
 * {@code POST /jms/send?queue=Q&copies=N&name=value...} sends N text messages to the queue, each with the other
 * parameters as string properties, and answers the last JMSMessageID; {@code GET /jms/dead-lettered?selector=S}
 * answers how many messages in the dead-letter queue match the selector, {@code GET /jms/queued?queue=Q} how many wait
 * in the queue; {@code GET /jms/ping} answers {@code pong},
 * which tells the test client that the deployment is up.
 *
 * <p>The JNDI names come from the server's system properties: {@code txinbox.it.jms.connectionFactory}, the queue's
 * name after {@code txinbox.it.jms.queuePrefix}, and {@code txinbox.it.jms.deadLetterQueue} (a JNDI name, or
 * {@code queue:} and the broker's own name of the queue).
 */
@WebServlet("/jms/*")
public class JmsServlet extends HttpServlet {

    private static final long serialVersionUID = 1L;

    /** Marks a dead-letter queue given by its physical name rather than a JNDI name (OpenMQ's mq.sys.dmq). */
    private static final String PHYSICAL = "queue:";

    @Override
    protected void doPost(HttpServletRequest request, HttpServletResponse response) throws IOException {
        if (!"/send".equals(request.getPathInfo())) {
            response.sendError(HttpServletResponse.SC_NOT_FOUND);
            return;
        }
        String queueName = request.getParameter("queue");
        int copies = Integer.parseInt(request.getParameter("copies"));
        try (JMSContext context = connectionFactory().createContext()) {
            Queue queue = lookup(setting("txinbox.it.jms.queuePrefix") + queueName, Queue.class);
            String id = null;
            for (int i = 0; i < copies; i++) {
                Message message = context.createTextMessage("order");
                for (Map.Entry<String, String[]> parameter : request.getParameterMap().entrySet()) {
                    String name = parameter.getKey();
                    if (!name.equals("queue") && !name.equals("copies")) {
                        message.setStringProperty(name, parameter.getValue()[0]);
                    }
                }
                context.createProducer().send(queue, message);
                id = message.getJMSMessageID();
            }
            response.setContentType("text/plain");
            response.getWriter().print(id);
        } catch (JMSException e) {
            throw new IOException("Could not send to " + queueName, e);
        }
    }

    @Override
    protected void doGet(HttpServletRequest request, HttpServletResponse response) throws IOException {
        if ("/ping".equals(request.getPathInfo())) {
            response.setContentType("text/plain");
            response.getWriter().print("pong");
            return;
        }
        String queueName;
        if ("/dead-lettered".equals(request.getPathInfo())) {
            queueName = setting("txinbox.it.jms.deadLetterQueue");
        } else if ("/queued".equals(request.getPathInfo())) {
            queueName = setting("txinbox.it.jms.queuePrefix") + request.getParameter("queue");
        } else {
            response.sendError(HttpServletResponse.SC_NOT_FOUND);
            return;
        }
        String selector = request.getParameter("selector");
        try (JMSContext context = connectionFactory().createContext();
                QueueBrowser browser = context.createBrowser(queueName.startsWith(PHYSICAL)
                        ? context.createQueue(queueName.substring(PHYSICAL.length()))
                        : lookup(queueName, Queue.class), selector)) {
            response.setContentType("text/plain");
            response.getWriter().print(Collections.list(browser.getEnumeration()).size());
        } catch (JMSException e) {
            throw new IOException("Could not browse " + queueName, e);
        }
    }

    private static ConnectionFactory connectionFactory() {
        return lookup(setting("txinbox.it.jms.connectionFactory"), ConnectionFactory.class);
    }

    private static String setting(String name) {
        String value = System.getProperty(name);
        if (value == null) {
            throw new IllegalStateException("The server has no system property " + name);
        }
        return value;
    }

    private static <T> T lookup(String name, Class<T> type) {
        try {
            return type.cast(new InitialContext().lookup(name));
        } catch (NamingException e) {
            throw new IllegalStateException("No " + type.getSimpleName() + " at " + name, e);
        }
    }
}
