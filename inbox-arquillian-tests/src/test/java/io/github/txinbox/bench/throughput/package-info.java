/**
 * The same message-driven bean without {@code @Inbox}, with it, and with a marker written by hand, for the throughput
 * benchmark.
 */
package io.github.txinbox.bench.throughput;
