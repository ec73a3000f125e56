/**
 * Item 7's application: two Kafka channels, read by the same consumer path, whose handlers differ only in
 * {@code @Inbox}.
 */
package io.github.txinbox.bench.kafka;
