package io.github.txinbox.spi;

import java.util.List;

/**
 * A CDI extension whose bindings claim markers in scopes of their own. The core's extension is one; a module that
 * adds a binding (inbox-http's {@code @Idempotent}) is another. At deployment the core asks every extension that
 * implements this interface, and fails the deployment where bindings whose ids are of different kinds share a scope
 * (a message id would be taken for an idempotency key); when the application starts, it checks each scope against the
 * configured limit of the scope column.
 */
public interface ScopeOwner {

    /**
     * Returns the scopes of the deployment's bound methods, known once the extension has bound them (after
     * {@code AfterBeanDiscovery}).
     *
     * @return each use of a scope
     */
    List<ScopeUse> scopeUses();
}
