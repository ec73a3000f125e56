package io.github.txinbox.sample.launcher;

import jakarta.json.Json;
import jakarta.json.JsonException;
import jakarta.json.JsonObject;
import jakarta.json.JsonValue;
import java.io.IOException;
import java.io.StringReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;

/** The sample's REST API, as the launcher uses it: send a demo batch, read a batch's status. */
final class SampleApi {

    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private final String baseUrl;
    private final Path serverLog;

    /**
     * @param httpPort  Payara's HTTP port
     * @param serverLog the server's log, named in errors
     */
    SampleApi(int httpPort, Path serverLog) {
        this.baseUrl = "http://127.0.0.1:" + httpPort + "/sample/api/orders";
        this.serverLog = serverLog;
    }

    String baseUrl() {
        return baseUrl;
    }

    /** Sends the demo batch; returns what the server says it sent. */
    JsonObject demo(int orders, int duplicates, int failing, int poison) {
        return send(HttpRequest.newBuilder(URI.create(baseUrl + "/demo?orders=" + orders + "&duplicates="
                + duplicates + "&failing=" + failing + "&poison=" + poison))
                .POST(HttpRequest.BodyPublishers.noBody()).timeout(Duration.ofSeconds(60)).build());
    }

    /** Reads what became of a batch. */
    JsonObject status(String batch) {
        return send(HttpRequest.newBuilder(URI.create(statusUrl(batch))).GET().timeout(Duration.ofSeconds(30))
                .build());
    }

    String statusUrl(String batch) {
        return baseUrl + "/status?batch=" + batch;
    }

    /** A count from a status, or -1 where the server could not tell (JSON null). */
    static long count(JsonObject status, String name) {
        JsonValue value = status.get(name);
        return value == null || value.getValueType() == JsonValue.ValueType.NULL ? -1
                : status.getJsonNumber(name).longValue();
    }

    private JsonObject send(HttpRequest request) {
        HttpResponse<String> response;
        try {
            response = http.send(request, HttpResponse.BodyHandlers.ofString());
        } catch (IOException e) {
            throw new LauncherException(request.method() + " " + request.uri() + " failed: " + e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new LauncherException("Interrupted");
        }
        if (response.statusCode() != 200) {
            // The body of a server error is an HTML page with a stack trace: the server log has the same, readable.
            throw new LauncherException(request.method() + " " + request.uri() + " answered " + response.statusCode()
                    + ". The server's log says why: " + serverLog);
        }
        try (var reader = Json.createReader(new StringReader(response.body()))) {
            return reader.readObject();
        } catch (JsonException e) {
            throw new LauncherException(request.uri() + " answered something other than a JSON object: "
                    + e.getMessage());
        }
    }
}
