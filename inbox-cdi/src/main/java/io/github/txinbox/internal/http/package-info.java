/**
 * The Jakarta REST side of {@link io.github.txinbox.Idempotent @Idempotent}: the feature and filter that fingerprint
 * each request of an {@code @Idempotent} method, the reading of its key, the problem details it answers with, and the
 * writing of a response's body to store it. The interceptor that applies the rules is in
 * {@link io.github.txinbox.internal.binding}. Not an API: its types may change at any time.
 */
package io.github.txinbox.internal.http;
