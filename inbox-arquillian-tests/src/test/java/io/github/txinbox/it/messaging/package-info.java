/**
 * The application under test in the end-to-end tests: message-driven beans and a stateless bean with
 * {@link io.github.txinbox.Inbox @Inbox}, consuming from the Artemis broker through the test resource adapter, and
 * writing one invoice per processed order.
 */
package io.github.txinbox.it.messaging;
