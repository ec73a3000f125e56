/**
 * The same message-driven bean with XA and without, with the inbox and without, and acknowledged after the commit of
 * a transaction of its own, for the price-of-XA benchmark.
 */
package io.github.txinbox.bench.xaprice;
