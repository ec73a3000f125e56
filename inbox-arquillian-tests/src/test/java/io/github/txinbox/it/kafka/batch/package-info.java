/**
 * A consumer of batches of Kafka records on SmallRye's connector, shaped as docs/kafka.md shows: each poll's records
 * claimed in one statement and handled in one transaction, and, when that transaction rolls back, handed over one by
 * one so that only the failing record is dead-lettered.
 */
package io.github.txinbox.it.kafka.batch;
