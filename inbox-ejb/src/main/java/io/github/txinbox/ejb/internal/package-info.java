/** The per-batch transactions behind {@link io.github.txinbox.ejb.InboxPurger}. Not an API. */
package io.github.txinbox.ejb.internal;
