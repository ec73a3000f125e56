package io.github.txinbox.http.internal;

import jakarta.ws.rs.core.Response;

/**
 * The answers {@code @Idempotent} gives in the method's place, as problem details (RFC 9457,
 * {@code application/problem+json}): each names its type, the status, and in {@code detail} what the client does next.
 * The types are URNs of the library's own, listed in docs/http.md.
 */
public enum Problems {

    /** No key where the method requires one: 400. */
    KEY_MISSING(400, "Idempotency key missing"),
    /** A key that is empty, not printable ASCII, too long, or sent twice: 400. */
    KEY_INVALID(400, "Idempotency key not valid"),
    /** Keys are kept per caller, and the request has no authenticated caller: 403. */
    NO_PRINCIPAL(403, "No caller to keep the idempotency key for"),
    /** The key was used before for another request: 422. */
    KEY_REUSED(422, "Idempotency key reused for another request"),
    /** A request with the key is still being processed, past the wait: 409. */
    IN_PROGRESS(409, "Request with this idempotency key in progress"),
    /** The method's transaction will not commit although it answered with a success: 500. */
    ROLLED_BACK(500, "Request rolled back"),
    /** The response could not be stored (too long, a body that cannot be written): 500. */
    NOT_STORED(500, "Response not stored"),
    /** The method carries {@code @Idempotent}, but CDI did not bind it: 500, and the method does not run. */
    NOT_APPLIED(500, "Idempotency not applied");

    /** The media type of problem details. */
    public static final String MEDIA_TYPE = "application/problem+json";

    private final int status;
    private final String title;

    Problems(int status, String title) {
        this.status = status;
        this.title = title;
    }

    /**
     * Returns the problem's type: {@code urn:txinbox:problem:} and its name in lower case with dashes.
     *
     * @return the type URI
     */
    public String type() {
        return "urn:txinbox:problem:" + name().toLowerCase(java.util.Locale.ROOT).replace('_', '-');
    }

    /**
     * Returns the problem's status.
     *
     * @return the HTTP status
     */
    public int status() {
        return status;
    }

    /**
     * Builds the response that answers with this problem.
     *
     * @param detail what happened and what the client does next
     * @return the response, not yet sent
     */
    public Response.ResponseBuilder answer(String detail) {
        String body = "{\"type\":\"" + type() + "\",\"title\":\"" + json(title) + "\",\"status\":" + status
                + ",\"detail\":\"" + json(detail) + "\"}";
        return Response.status(status).type(MEDIA_TYPE).entity(body);
    }

    static String json(String text) {
        StringBuilder escaped = new StringBuilder(text.length() + 16);
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            switch (c) {
                case '"' -> escaped.append("\\\"");
                case '\\' -> escaped.append("\\\\");
                case '\n' -> escaped.append("\\n");
                case '\r' -> escaped.append("\\r");
                case '\t' -> escaped.append("\\t");
                default -> {
                    if (c < 0x20) {
                        escaped.append(String.format("\\u%04x", (int) c));
                    } else {
                        escaped.append(c);
                    }
                }
            }
        }
        return escaped.toString();
    }
}
