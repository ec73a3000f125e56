/** The same message-driven bean with and without {@code @Inbox}, for the throughput benchmark. */
package io.github.txinbox.bench.throughput;
