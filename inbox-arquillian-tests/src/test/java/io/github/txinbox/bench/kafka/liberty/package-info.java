/**
 * Item 7's consumer on Open Liberty's {@code liberty-kafka} connector, which passes no {@code ConsumerRecord}
 * parameter.
 */
package io.github.txinbox.bench.kafka.liberty;
