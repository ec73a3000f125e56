/**
 * The Kafka consumer of the tests on Open Liberty's {@code liberty-kafka} connector, which passes no
 * {@code ConsumerRecord} parameter and stops a channel on a nack: it dead-letters a failed record itself.
 */
package io.github.txinbox.it.kafka.liberty;
