/** The ways users write deduplication without an inbox, as baselines for the inbox's own claim. */
package io.github.txinbox.bench.naive;
