/**
 * Integration tests of txinbox in Payara Micro against PostgreSQL: one deployment (one server start) per test class,
 * built by {@link io.github.txinbox.it.harness.Deployments}.
 */
package io.github.txinbox.it;
