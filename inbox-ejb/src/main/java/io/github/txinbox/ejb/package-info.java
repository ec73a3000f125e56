/**
 * EJB companions of the inbox core: {@link io.github.txinbox.ejb.InboxPurger}, which deletes expired markers batch by
 * batch, each batch in a transaction of its own.
 */
package io.github.txinbox.ejb;
