/** Inbox table configurations that the start-up check must refuse, one per deployment. */
package io.github.txinbox.it.tables;
