/**
 * The sample application: order-placed messages become invoices, exactly once per order, through {@code @Inbox} on a
 * {@code @Transactional} bean that a message-driven bean calls; the inbox's markers are purged on a schedule.
 */
package io.github.txinbox.sample;
