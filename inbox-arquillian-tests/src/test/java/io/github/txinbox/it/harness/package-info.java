/**
 * The test client's side of the harness, never deployed: the PostgreSQL server for the whole test run and the
 * builder of test deployments.
 */
package io.github.txinbox.it.harness;
