/**
 * The public API of txinbox: {@link io.github.txinbox.InboxRepository}, which records processed messages in the
 * caller's JTA transaction, the {@link io.github.txinbox.InboxTable} it writes to, and the DDL that creates that
 * table ({@link io.github.txinbox.InboxSchema}). Package-private types here hold the SQL and the input checks.
 */
package io.github.txinbox;
