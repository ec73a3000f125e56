/**
 * What txinbox's own modules build on beside the public API: the lookup of an intercepted call's binding
 * ({@link io.github.txinbox.spi.BindingIndex}), which transaction a method runs in
 * ({@link io.github.txinbox.spi.Demarcation}), reporting a call once its transaction ended
 * ({@link io.github.txinbox.spi.CallCompletion}), the scopes a module's bindings claim in
 * ({@link io.github.txinbox.spi.ScopeOwner}) and the checks it adds to the table's
 * ({@link io.github.txinbox.spi.TableCheck}). inbox-http uses them. An application needs none of them; they may
 * change between minor versions.
 */
package io.github.txinbox.spi;
