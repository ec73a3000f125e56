/**
 * The application's {@link io.github.txinbox.InboxSettings}: where they are read from (MicroProfile Config, else system
 * properties), how they are checked, and which optional MicroProfile APIs the server has. Not an API.
 */
package io.github.txinbox.internal.settings;
