/**
 * EJB companions of the inbox core: services that need container-managed transaction demarcation of their own,
 * such as cleanup that commits each batch in a new transaction. Empty until the cleanup service lands.
 */
package io.github.txinbox.ejb;
