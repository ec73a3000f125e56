/**
 * What txinbox's own modules build on beside the public API: the lookup of an intercepted call's binding
 * ({@link io.github.txinbox.spi.BindingIndex}), which transaction a method runs in
 * ({@link io.github.txinbox.spi.Demarcation}), reporting a call once its transaction ended
 * ({@link io.github.txinbox.spi.CallCompletion}), the scopes a module's bindings claim in
 * ({@link io.github.txinbox.spi.ScopeOwner}), the checks it adds to the table's
 * ({@link io.github.txinbox.spi.TableCheck}) and where its own settings are read
 * ({@link io.github.txinbox.spi.SettingSource}). inbox-http uses them. An application needs none of them; they may
 * change between minor versions.
 */
package io.github.txinbox.spi;
