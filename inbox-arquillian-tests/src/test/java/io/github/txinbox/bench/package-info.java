/**
 * Benchmarks: what the inbox costs, each figure a ratio against a baseline measured in the same run. Run only with
 * {@code -Pbenchmarks}; see docs/benchmarks.md.
 */
package io.github.txinbox.bench;
