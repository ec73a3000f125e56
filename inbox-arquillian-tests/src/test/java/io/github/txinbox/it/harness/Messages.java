package io.github.txinbox.it.harness;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.URL;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.TreeMap;

/**
 * Sends messages to the portable suite's queues and counts dead-lettered ones, through the broker this run's server
 * uses: the test JVM's Artemis on Payara Micro ({@link Broker}), else the server's own broker, reached through the
 * deployment's {@code JmsServlet}.
 */
public final class Messages {

    private static final HttpClient HTTP = HttpClient.newHttpClient();

    private final URL deployment;

    private Messages(URL deployment) {
        this.deployment = deployment;
    }

    /**
     * Returns the messaging of a deployment, once the deployment answers: a client-side test would otherwise wait for
     * messages that no bean consumes when the deployment failed (Payara Micro's adapter does not report it then).
     *
     * @param deployment the deployment's base URL, as Arquillian gives it
     * @return its messaging
     * @throws IllegalStateException when the deployment does not answer
     */
    public static Messages of(URL deployment) {
        Messages messages = new Messages(deployment);
        String answer = call(HttpRequest.newBuilder(messages.uri("jms/ping", Map.of())).GET().build());
        if (!"pong".equals(answer)) {
            throw new IllegalStateException("The deployment at " + deployment + " answered '" + answer + "' to ping");
        }
        return messages;
    }

    /**
     * Sends copies of a text message (each a message of its own) to a queue, in one burst.
     *
     * @param queue      the queue's name
     * @param properties the messages' string properties
     * @param copies     how many to send
     */
    public void send(String queue, Map<String, String> properties, int copies) {
        if (Server.current().usesTestBroker()) {
            Broker.send(queue, properties, copies);
            return;
        }
        Map<String, String> parameters = new TreeMap<>(properties);
        parameters.put("queue", queue);
        parameters.put("copies", Integer.toString(copies));
        call(HttpRequest.newBuilder(uri("jms/send", parameters)).POST(HttpRequest.BodyPublishers.noBody()).build());
    }

    /**
     * Counts the dead-lettered messages whose string property has a value.
     *
     * @param property the property
     * @param value    its value
     * @return how many are in the dead-letter queue
     */
    public int deadLettered(String property, String value) {
        String selector = property + " = '" + value + "'";
        if (Server.current().usesTestBroker()) {
            return Broker.count(ArtemisSession.DEAD_LETTER_QUEUE, selector);
        }
        return Integer.parseInt(call(HttpRequest.newBuilder(uri("jms/dead-lettered", Map.of("selector", selector)))
                .GET().build()).trim());
    }

    /**
     * Counts the messages of a queue that wait for a consumer (not those delivered and not yet acknowledged).
     *
     * @param queue the queue's name
     * @return how many wait
     */
    public int queued(String queue) {
        if (Server.current().usesTestBroker()) {
            return Broker.count(queue, null);
        }
        return Integer.parseInt(call(HttpRequest.newBuilder(uri("jms/queued", Map.of("queue", queue))).GET().build())
                .trim());
    }

    private URI uri(String path, Map<String, String> parameters) {
        StringBuilder query = new StringBuilder();
        parameters.forEach((name, value) -> query.append(query.length() == 0 ? "" : "&")
                .append(URLEncoder.encode(name, StandardCharsets.UTF_8)).append('=')
                .append(URLEncoder.encode(value, StandardCharsets.UTF_8)));
        String base = deployment.toExternalForm();
        return URI.create(base + (base.endsWith("/") ? "" : "/") + path + (query.length() == 0 ? "" : "?" + query));
    }

    private static String call(HttpRequest request) {
        try {
            HttpResponse<String> response = HTTP.send(request, HttpResponse.BodyHandlers.ofString());
            if (response.statusCode() != 200) {
                throw new IllegalStateException(request.method() + " " + request.uri() + " answered "
                        + response.statusCode() + ": " + response.body());
            }
            return response.body();
        } catch (IOException e) {
            throw new UncheckedIOException("Could not reach " + request.uri(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
