package io.github.txinbox.http.internal;

import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * A response stored beside a marker, to be replayed for a retry of the request that claimed it
 * ({@link io.github.txinbox.http.Idempotent @Idempotent}; {@link ResponseStore} stores it).
 *
 * @param requestFingerprint what identifies the request (a digest of its method, target and body), 1 to 64 bytes, so
 *                           that a retry with the same key and another request can be told apart
 * @param status             the HTTP status, from 100 to 599
 * @param headers            the headers to replay, by name, in order; each name an HTTP field name, each value
 *                           without a line break
 * @param body               the body's bytes, empty for none
 */
public record RecordedResponse(byte[] requestFingerprint, int status, Map<String, String> headers, byte[] body) {

    /** The longest fingerprint accepted, in bytes: a SHA-512 digest. */
    public static final int MAX_FINGERPRINT_BYTES = 64;

    private static final Pattern FIELD_NAME = Pattern.compile("[!#$%&'*+\\-.^_`|~0-9A-Za-z]+");

    /**
     * Checks the response and copies its arrays and headers.
     *
     * @throws IllegalArgumentException when the fingerprint is null, empty or too long, the status is out of range,
     *                                  a header's name is not a field name or its value is null or holds a line
     *                                  break, or the body is null
     */
    public RecordedResponse {
        if (requestFingerprint == null || requestFingerprint.length == 0
                || requestFingerprint.length > MAX_FINGERPRINT_BYTES) {
            throw new IllegalArgumentException("requestFingerprint must have 1 to " + MAX_FINGERPRINT_BYTES
                    + " bytes, but has " + (requestFingerprint == null ? "none" : requestFingerprint.length));
        }
        if (status < 100 || status > 599) {
            throw new IllegalArgumentException("status must lie between 100 and 599, but is " + status);
        }
        if (headers == null || body == null) {
            throw new IllegalArgumentException("headers and body must not be null; use an empty map or array");
        }
        Map<String, String> copy = new LinkedHashMap<>();
        headers.forEach((name, value) -> {
            if (name == null || !FIELD_NAME.matcher(name).matches()) {
                throw new IllegalArgumentException("'" + name + "' is not an HTTP header name");
            }
            if (value == null || value.indexOf('\r') >= 0 || value.indexOf('\n') >= 0) {
                throw new IllegalArgumentException("the header " + name + " has no value, or one with a line break");
            }
            copy.put(name, value);
        });
        requestFingerprint = requestFingerprint.clone();
        headers = java.util.Collections.unmodifiableMap(copy);
        body = body.clone();
    }

    /**
     * Returns a copy of the fingerprint.
     *
     * @return the fingerprint's bytes
     */
    @Override
    public byte[] requestFingerprint() {
        return requestFingerprint.clone();
    }

    /**
     * Returns a copy of the body.
     *
     * @return the body's bytes, empty for none
     */
    @Override
    public byte[] body() {
        return body.clone();
    }

    /**
     * Whether this response was recorded for a request with that fingerprint.
     *
     * @param fingerprint the fingerprint of a request
     * @return whether the two fingerprints are equal
     */
    public boolean answers(byte[] fingerprint) {
        return java.security.MessageDigest.isEqual(requestFingerprint, fingerprint);
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof RecordedResponse that && status == that.status
                && Arrays.equals(requestFingerprint, that.requestFingerprint) && headers.equals(that.headers)
                && Arrays.equals(body, that.body);
    }

    @Override
    public int hashCode() {
        return 31 * (31 * (31 * Arrays.hashCode(requestFingerprint) + status) + headers.hashCode())
                + Arrays.hashCode(body);
    }

    @Override
    public String toString() {
        return "RecordedResponse[status=" + status + ", headers=" + headers + ", body=" + body.length + " bytes]";
    }

    /** The headers as stored: one {@code name: value} per line. */
    String headerLines() {
        StringBuilder lines = new StringBuilder();
        headers.forEach((name, value) -> lines.append(name).append(": ").append(value).append('\n'));
        return lines.toString();
    }

    /** The headers as {@link #headerLines()} wrote them. */
    static Map<String, String> parseHeaderLines(String lines) {
        Map<String, String> headers = new LinkedHashMap<>();
        if (lines != null) {
            for (String line : lines.split("\n")) {
                int colon = line.indexOf(": ");
                if (colon > 0) {
                    headers.put(line.substring(0, colon), line.substring(colon + 2));
                }
            }
        }
        return headers;
    }
}
