/**
 * What the integration tests and the sample start on this machine: the one process runner, and PostgreSQL. Not part
 * of the library, and not published.
 */
package io.github.txinbox.dev;
