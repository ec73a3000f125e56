/**
 * The test client's side of the harness, never deployed: the PostgreSQL server and the broker for the whole test run,
 * the set-up of the server under test ({@link io.github.txinbox.it.harness.Server} names it), servers started by hand,
 * and the builder of test deployments.
 */
package io.github.txinbox.it.harness;
