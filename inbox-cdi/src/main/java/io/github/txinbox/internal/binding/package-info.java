/**
 * Binding and interception of {@link io.github.txinbox.Inbox @Inbox}: the CDI extension that binds and checks every use
 * at deployment (and adds the optional metrics and readiness beans), each method's binding with the source of its
 * message id, and the interceptor that applies it in the caller's transaction. Not an API: its types may change at any
 * time (the public ones are CDI beans, or used by the other internal packages).
 */
package io.github.txinbox.internal.binding;
