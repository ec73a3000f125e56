/** The same message-driven bean with XA and without, with the inbox and without, for the price-of-XA benchmark. */
package io.github.txinbox.bench.xaprice;
