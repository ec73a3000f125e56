/**
 * The public API of txinbox: the {@link io.github.txinbox.Inbox @Inbox} interceptor binding and what it returns and
 * fires ({@link io.github.txinbox.InboxResult}, {@link io.github.txinbox.InboxEvent},
 * {@link io.github.txinbox.InboxOutcome}); {@link io.github.txinbox.InboxRepository}, which records processed
 * messages in the caller's JTA transaction; the {@link io.github.txinbox.InboxTable} it writes to and its DDL
 * ({@link io.github.txinbox.InboxSchema}); the {@link io.github.txinbox.InboxSettings} and
 * {@link io.github.txinbox.InboxLimits}. Package-private types here hold the SQL. Nothing here depends on
 * the packages under {@code io.github.txinbox.internal}.
 */
package io.github.txinbox;
