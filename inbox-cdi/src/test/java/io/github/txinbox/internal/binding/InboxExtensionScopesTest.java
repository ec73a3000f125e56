package io.github.txinbox.internal.binding;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.github.txinbox.spi.ScopeOwner;
import io.github.txinbox.spi.ScopeUse;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class InboxExtensionScopesTest {

    private static final ScopeOwner INBOX = () -> List.of(
            new ScopeUse("orders", "orders", "@Inbox on com.example.Orders.onMessage", "a message id"),
            new ScopeUse("payments", "payments", "@Inbox on com.example.Payments.onMessage", "a message id"));

    @Test
    void bindingsWhoseIdsDifferMustNotShareAScope() {
        ScopeOwner http = () -> List.of(
                new ScopeUse("orders", "orders", "@Idempotent on com.example.OrderResource.create",
                        "an idempotency key"),
                new ScopeUse("orders", "orders", "@Idempotent on com.example.OrderResource.update",
                        "an idempotency key"),
                new ScopeUse("refunds", "refunds", "@Idempotent on com.example.RefundResource.create",
                        "an idempotency key"));
        assertEquals(List.of("@Inbox on com.example.Orders.onMessage and @Idempotent on "
                + "com.example.OrderResource.create share the scope 'orders': a message id and an idempotency key "
                + "would be taken for each other; give each a scope of its own"),
                InboxExtension.sharedScopes(List.of(INBOX, http)));
    }

    @Test
    void bindingsWhoseIdsAreAlikeMayShareAScope() {
        ScopeOwner more = () -> List.of(
                new ScopeUse("orders", "orders", "@Inbox on com.example.OrderBatches.onMessage", "a message id"));
        assertEquals(List.of(), InboxExtension.sharedScopes(List.of(INBOX, more)));
    }

    @Test
    void eachScopeIsMeasuredAsItIsStored() {
        ScopeOwner http = () -> List.of(new ScopeUse("carts", "carts" + "x".repeat(16),
                "@Idempotent on com.example.CartResource.add (with the 16 bytes a caller's keys add)",
                "an idempotency key"));
        assertEquals(Map.of("orders", "@Inbox on com.example.Orders.onMessage",
                "payments", "@Inbox on com.example.Payments.onMessage",
                "carts" + "x".repeat(16), "@Idempotent on com.example.CartResource.add (with the 16 bytes a caller's "
                        + "keys add)"), InboxExtension.scopes(List.of(INBOX, http)));
    }
}
