/**
 * The sample application: order-placed messages become invoices, exactly once per order, through {@code @Inbox} on a
 * message-driven bean; the inbox's markers are purged on a schedule.
 */
package io.github.txinbox.sample;
