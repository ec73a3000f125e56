package io.github.txinbox.internal;

/**
 * Checks the scope and message id of a marker before any SQL runs. A bad key must fail here, in Java: once PostgreSQL
 * rejects a statement, the whole transaction is aborted, and with it the caller's work.
 */
public final class Keys {

    private Keys() {
    }

    /**
     * Returns the value if it is a usable key part: not null, not blank, no NUL character (PostgreSQL text cannot
     * hold one), no unpaired surrogate (it would be sent as '?' and collide with other ids), and at most
     * {@code maxBytes} bytes in UTF-8 (a B-tree index entry has a size ceiling).
     */
    public static String require(String what, String value, int maxBytes) {
        if (value == null) {
            throw new IllegalArgumentException(what + " must not be null");
        }
        if (value.isBlank()) {
            throw new IllegalArgumentException(what + " must not be blank");
        }
        long bytes = 0;
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            if (c == '\0') {
                throw new IllegalArgumentException(what + " must not contain a NUL character (at index " + i + ")");
            }
            if (c < 0x80) {
                bytes += 1;
            } else if (c < 0x800) {
                bytes += 2;
            } else if (Character.isHighSurrogate(c) && i + 1 < value.length()
                    && Character.isLowSurrogate(value.charAt(i + 1))) {
                bytes += 4;
                i++;
            } else if (Character.isSurrogate(c)) {
                throw new IllegalArgumentException(what + " has an unpaired surrogate character at index " + i
                        + ": it is not valid Unicode text");
            } else {
                bytes += 3;
            }
        }
        if (bytes > maxBytes) {
            throw new IllegalArgumentException(what + " is " + bytes + " bytes long in UTF-8; the limit is "
                    + maxBytes + " bytes (it starts with '" + start(value) + "...')");
        }
        return value;
    }

    private static String start(String value) {
        return value.substring(0, value.offsetByCodePoints(0, Math.min(32, value.codePointCount(0, value.length()))));
    }
}
