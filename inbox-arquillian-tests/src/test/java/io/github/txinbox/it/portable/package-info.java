/**
 * The application of the portable suite, the same on every server: message-driven beans with no server-specific
 * annotation (each server's {@code ejb-jar.xml} binds them to its broker), an observer that records every decision of
 * the inbox, and a servlet that sends and counts messages through the server's own JMS provider.
 */
package io.github.txinbox.it.portable;
