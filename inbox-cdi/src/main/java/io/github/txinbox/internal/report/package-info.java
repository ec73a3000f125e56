/**
 * What every intercepted call shares once it is decided: waiting for its transaction's end before it is reported, and
 * the wording of the reasons it is reported with. Used by {@link io.github.txinbox.internal.binding} and
 * {@link io.github.txinbox.internal.http}. Not an API: its types may change at any time.
 */
package io.github.txinbox.internal.report;
