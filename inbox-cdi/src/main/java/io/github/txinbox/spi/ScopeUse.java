package io.github.txinbox.spi;

/**
 * One use of a scope by a binding, as an extension found it at deployment: what the start-up check measures against
 * the scope column's limit, and what tells two bindings that share a scope apart.
 *
 * @param scope    the scope the binding claims markers in
 * @param storedAs the longest scope its markers are stored under (the scope itself, or with a suffix the binding
 *                 adds, as {@code @Idempotent} does for keys kept per caller)
 * @param usedBy   what uses it, naming the binding, the bean and the method, such as
 *                 {@code "@Inbox on com.example.Orders.handle"}; with what the binding adds to the scope, if anything
 * @param ids      what the binding's markers are the ids of, such as {@code "a message id"}: two bindings with ids
 *                 of different kinds must not share a scope
 */
public record ScopeUse(String scope, String storedAs, String usedBy, String ids) {
}
