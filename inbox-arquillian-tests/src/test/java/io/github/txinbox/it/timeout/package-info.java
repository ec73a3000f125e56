/** A consumer whose transaction times out while its handler runs. */
package io.github.txinbox.it.timeout;
