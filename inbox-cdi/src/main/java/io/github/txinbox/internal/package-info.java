/**
 * The machinery behind {@link io.github.txinbox.Inbox @Inbox}: the CDI extension that binds and checks every use at
 * deployment, the interceptor, the settings' reader and the start-up check. It uses the API package, never the other
 * way round. Not an API: its types may change at any time (the public ones are CDI beans, which must be).
 */
package io.github.txinbox.internal;
