/**
 * The start-up check: the settings, the {@code @Inbox} scopes and the inbox table when the application starts, or when
 * its first web module does. The top of the internals: it uses the bindings, the settings and the health package's
 * look, and nothing uses it. Not an API.
 */
package io.github.txinbox.internal.startup;
