/**
 * The deployer application of the shared Payara Micro ({@link io.github.txinbox.it.harness.PayaraMicro}): deployed at
 * its boot, it deploys and undeploys each test class's WAR for Arquillian, so that one server runs the classes of a
 * leg in turn. Never part of a test deployment.
 */
package io.github.txinbox.it.deployer;
