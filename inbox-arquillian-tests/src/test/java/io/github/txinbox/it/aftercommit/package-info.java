/**
 * The order handling of the end-to-end tests in the set-up that acknowledges after the commit: a message-driven bean
 * without a transaction on the queue {@code orders}, calling a {@code @Transactional @Inbox} bean. A package of its
 * own, so that the deployments that add the whole {@link io.github.txinbox.it.messaging} package get no second
 * consumer of that queue.
 */
package io.github.txinbox.it.aftercommit;
