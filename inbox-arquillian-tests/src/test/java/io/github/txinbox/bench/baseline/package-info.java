/**
 * The throughput benchmark's {@code @Inbox} listener for the library of an earlier commit, in a deployment of its own
 * ({@link io.github.txinbox.bench.Baseline}); apart from the other listeners, so that no deployment holds it with
 * this build's library.
 */
package io.github.txinbox.bench.baseline;
