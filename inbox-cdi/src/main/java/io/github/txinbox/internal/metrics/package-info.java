/**
 * The inbox's MicroProfile Metrics, recorded from the {@link io.github.txinbox.InboxEvent}s; added only where the
 * server has the API. Not an API.
 */
package io.github.txinbox.internal.metrics;
