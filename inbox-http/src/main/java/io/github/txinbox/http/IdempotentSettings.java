package io.github.txinbox.http;

import io.github.txinbox.InboxConfigurationException;

/**
 * inbox-http's own settings, read once from where the core reads {@link io.github.txinbox.InboxSettings} (MicroProfile
 * Config where the server has it, else system properties) and checked when the application starts: a bad value fails
 * the start with an {@link InboxConfigurationException} naming the property. Inject {@code IdempotentSettings} to see
 * the values in effect. The rest of what {@link Idempotent @Idempotent} reads (the longest key, the claim's wait, the
 * table) is the core's {@code InboxSettings}.
 *
 * @param maxResponseBytes the longest response body an {@code @Idempotent} method's response may have, in bytes
 *                         ({@value #MAX_RESPONSE_BYTES}, default {@value #DEFAULT_MAX_RESPONSE_BYTES})
 */
public record IdempotentSettings(int maxResponseBytes) {

    /**
     * The longest response body an {@code @Idempotent} method may return, in bytes, from 0 to
     * {@value #MAX_RESPONSE_BYTES_CEILING}. A longer one is not stored: the request is answered with 500 and its
     * transaction rolls back.
     */
    public static final String MAX_RESPONSE_BYTES = "txinbox.http.max-response-bytes";

    /** The default of {@value #MAX_RESPONSE_BYTES}: {@value} bytes (64 KiB). */
    public static final int DEFAULT_MAX_RESPONSE_BYTES = 65_536;

    /** The most {@value #MAX_RESPONSE_BYTES} may be: {@value} bytes (16 MiB). */
    public static final int MAX_RESPONSE_BYTES_CEILING = 16 * 1024 * 1024;

    /** The settings when nothing is configured. */
    public static final IdempotentSettings DEFAULTS = new IdempotentSettings(DEFAULT_MAX_RESPONSE_BYTES);

    /**
     * Checks the settings.
     *
     * @throws InboxConfigurationException when the response limit is out of its range
     */
    public IdempotentSettings {
        if (maxResponseBytes < 0 || maxResponseBytes > MAX_RESPONSE_BYTES_CEILING) {
            throw new InboxConfigurationException(MAX_RESPONSE_BYTES + "=" + maxResponseBytes + " is not valid: it "
                    + "must lie between 0 and " + MAX_RESPONSE_BYTES_CEILING);
        }
    }
}
