/**
 * The machinery behind {@link io.github.txinbox.Inbox @Inbox}: the interceptor, the per-method binding it computes
 * once, and the CDI extension that checks every use at deployment. Not an API: its types may change at any time.
 */
package io.github.txinbox.internal;
