/** An application's scheduler of the purge, deployed only by the test of the scheduled purge. */
package io.github.txinbox.it.schedule;
