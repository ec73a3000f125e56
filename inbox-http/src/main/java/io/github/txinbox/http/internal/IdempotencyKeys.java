package io.github.txinbox.http.internal;

import java.util.List;

/**
 * Reads the idempotency key from the values of its request header, as the IETF draft "The Idempotency-Key HTTP Header
 * Field" writes it (a Structured Field string, {@code "8e03978e-40d5"}), or as a bare token ({@code 8e03978e-40d5}),
 * which most clients send.
 */
public final class IdempotencyKeys {

    /** What the header held: a key, nothing, or something that is not a key (with what is wrong with it). */
    public sealed interface Read permits Key, Missing, Invalid {
    }

    /** @param key the key, unquoted */
    public record Key(String key) implements Read {
    }

    /** No header. */
    public record Missing() implements Read {
    }

    /** @param detail what is wrong, for the client */
    public record Invalid(String detail) implements Read {
    }

    private IdempotencyKeys() {
    }

    /**
     * Reads the key from the header's values.
     *
     * @param header   the header's name, for the messages
     * @param values   every value the request sent under that name, in order
     * @param maxBytes the longest key accepted
     * @return the key, missing, or invalid
     */
    public static Read read(String header, List<String> values, int maxBytes) {
        if (values.isEmpty()) {
            return new Missing();
        }
        if (values.size() > 1) {
            return new Invalid("the request has " + values.size() + " " + header + " headers; send one");
        }
        String value = values.get(0).strip();
        String key;
        if (value.startsWith("\"")) {
            StringBuilder unquoted = new StringBuilder();
            int i = 1;
            boolean closed = false;
            for (; i < value.length(); i++) {
                char c = value.charAt(i);
                if (c == '\\' && i + 1 < value.length()
                        && (value.charAt(i + 1) == '"' || value.charAt(i + 1) == '\\')) {
                    unquoted.append(value.charAt(++i));
                } else if (c == '"') {
                    closed = true;
                    break;
                } else if (c < 0x20 || c > 0x7e || c == '\\') {
                    return new Invalid(header + " holds a character that a quoted key may not hold at position " + i
                            + " (printable ASCII only, with \\\" and \\\\ escaped)");
                } else {
                    unquoted.append(c);
                }
            }
            if (!closed || i != value.length() - 1) {
                return new Invalid(header + " starts with a quote but is not one quoted string");
            }
            key = unquoted.toString();
        } else {
            for (int i = 0; i < value.length(); i++) {
                char c = value.charAt(i);
                if (c <= 0x20 || c > 0x7e) {
                    return new Invalid(header + " holds a character other than printable ASCII at position " + i
                            + (c > 0x7e ? " (a key is ASCII)" : ""));
                }
                if (c == ',' || c == '"') {
                    return new Invalid(header + " holds '" + c + "' at position " + i + ": send one key, quoted "
                            + "(\"...\") if it holds such characters");
                }
            }
            key = value;
        }
        if (key.isBlank()) {
            return new Invalid(header + " is empty");
        }
        if (key.length() > maxBytes) {
            return new Invalid(header + " is " + key.length() + " characters long; the most is " + maxBytes);
        }
        return new Key(key);
    }
}
