/**
 * Integration tests of txinbox in a real container against PostgreSQL, one deployment per test class, built by
 * {@link io.github.txinbox.it.harness.Deployments}: on Payara Micro every class; on WildFly, Open Liberty and
 * GlassFish the portable suite (tag {@code portable}) and the classes tagged for those servers.
 */
package io.github.txinbox.it;
