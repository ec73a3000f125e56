/** A consumer that stops where the server-crash test kills the server. */
package io.github.txinbox.it.crash;
