package io.github.txinbox.it.harness;

import io.github.txinbox.http.Idempotent;
import io.github.txinbox.it.http.HttpApplication;
import io.github.txinbox.it.http.OrderDesk;
import io.github.txinbox.it.http.TestCallers;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.Socket;
import java.net.URI;
import java.net.URL;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;

/**
 * Orders sent to the {@code @Idempotent} test application ({@link io.github.txinbox.it.http}) over HTTP/1.1, as a
 * client sends them: a JSON body, the key headers, and the behaviour the endpoint takes.
 *
 * @param path      the endpoint, under the application's root
 * @param keys      the {@value Idempotent#IDEMPOTENCY_KEY} headers, each sent as a header of its own
 * @param body      the body
 * @param behaviour the {@value OrderDesk#BEHAVIOUR} header, or {@code null}
 * @param caller    the caller the request is authenticated as ({@link TestCallers}), or {@code null} for none
 */
public record OrderRequests(String path, List<String> keys, String body, String behaviour, String caller) {

    private static final HttpClient HTTP = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(10)).build();

    /**
     * An order with one key, or none.
     *
     * @param path    the endpoint
     * @param key     the key, or {@code null} for no header
     * @param orderId the order
     * @return the request
     */
    public static OrderRequests order(String path, String key, String orderId) {
        return new OrderRequests(path, key == null ? List.of() : List.of(key), "{\"orderId\":\"" + orderId + "\"}",
                null, null);
    }

    /**
     * The same request with a behaviour.
     *
     * @param behaviourHeader the behaviour
     * @return the request
     */
    public OrderRequests behaving(String behaviourHeader) {
        return new OrderRequests(path, keys, body, behaviourHeader, caller);
    }

    /**
     * The same request, authenticated as a caller.
     *
     * @param name the caller's name
     * @return the request
     */
    public OrderRequests as(String name) {
        return new OrderRequests(path, keys, body, behaviour, name);
    }

    /**
     * The same request with these key headers.
     *
     * @param headers the values, one header each
     * @return the request
     */
    public OrderRequests withKeys(String... headers) {
        return new OrderRequests(path, List.of(headers), body, behaviour, caller);
    }

    /**
     * Sends the request to a deployment.
     *
     * @param application the deployment's base URL
     * @return the response
     */
    public HttpResponse<String> send(URL application) throws IOException, InterruptedException {
        HttpRequest.Builder request = HttpRequest.newBuilder(target(application))
                .timeout(Duration.ofMinutes(1))
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body));
        for (String key : keys) {
            request.header(Idempotent.IDEMPOTENCY_KEY, key);
        }
        if (behaviour != null) {
            request.header(OrderDesk.BEHAVIOUR, behaviour);
        }
        if (caller != null) {
            request.header(TestCallers.HEADER, caller);
        }
        return HTTP.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    /**
     * Sends the request over a socket with one key of these bytes, which Java's HTTP client cannot send (it sends a
     * header as ASCII, an 'é' as '?').
     *
     * @param application the deployment's base URL
     * @param key         the key's bytes
     * @return the response as text, status line first
     */
    public String sendRaw(URL application, byte[] key) throws IOException {
        URI uri = target(application);
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        ByteArrayOutputStream request = new ByteArrayOutputStream();
        request.write(("POST " + uri.getRawPath() + " HTTP/1.1\r\nHost: " + uri.getHost() + ":" + uri.getPort()
                + "\r\nContent-Type: application/json\r\nContent-Length: " + bytes.length
                + "\r\nConnection: close\r\n" + Idempotent.IDEMPOTENCY_KEY + ": ").getBytes(StandardCharsets.US_ASCII));
        request.write(key);
        request.write("\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
        request.write(bytes);
        try (Socket socket = new Socket(uri.getHost(), uri.getPort())) {
            socket.setSoTimeout(60_000);
            socket.getOutputStream().write(request.toByteArray());
            socket.getOutputStream().flush();
            return new String(socket.getInputStream().readAllBytes(), StandardCharsets.ISO_8859_1);
        }
    }

    /**
     * Whether a response says it is a replay.
     *
     * @param response the response
     * @return whether it carries {@value Idempotent#REPLAYED}{@code : true}
     */
    public static boolean replayed(HttpResponse<?> response) {
        return response.headers().firstValue(Idempotent.REPLAYED).map("true"::equals).orElse(false);
    }

    private URI target(URL application) {
        return URI.create(application.toString()).resolve(HttpApplication.ROOT + "/" + path);
    }
}
