/**
 * The Kafka consumer of the Kafka tests: a MicroProfile Reactive Messaging {@code @Incoming} method that hands each
 * record to a {@code @Transactional @Inbox} bean on the connector's own thread, and is acknowledged (its offset
 * committed) only after that bean's transaction has committed.
 */
package io.github.txinbox.it.kafka;
