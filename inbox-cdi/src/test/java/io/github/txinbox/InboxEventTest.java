package io.github.txinbox;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class InboxEventTest {

    private static final Duration TOOK = Duration.ofMillis(3);

    @Test
    void carriesWhatTheInboxDecided() {
        InboxEvent event = new InboxEvent("orders", "m-1", InboxOutcome.SKIPPED, "test order", TOOK,
                "com.example.Listener.onMessage");
        assertEquals("orders", event.scope());
        assertEquals("m-1", event.messageId());
        assertEquals(InboxOutcome.SKIPPED, event.outcome());
        assertEquals("test order", event.reason());
        assertEquals(TOOK, event.duration());
        assertEquals("com.example.Listener.onMessage", event.method());
    }

    @Test
    void hasNoMessageIdOnlyWhenItWasMissing() {
        assertNull(new InboxEvent("orders", null, InboxOutcome.MISSING_ID, "no key", TOOK, "m").messageId());
        assertThrows(NullPointerException.class,
                () -> new InboxEvent("orders", null, InboxOutcome.PROCESSED, null, TOOK, "m"));
    }

    @Test
    void refusesMissingPartsAndNegativeDurations() {
        assertThrows(NullPointerException.class,
                () -> new InboxEvent(null, "m-1", InboxOutcome.PROCESSED, null, TOOK, "m"));
        assertThrows(NullPointerException.class, () -> new InboxEvent("orders", "m-1", null, null, TOOK, "m"));
        assertThrows(NullPointerException.class,
                () -> new InboxEvent("orders", "m-1", InboxOutcome.PROCESSED, null, null, "m"));
        assertThrows(NullPointerException.class,
                () -> new InboxEvent("orders", "m-1", InboxOutcome.PROCESSED, null, TOOK, null));
        assertThrows(IllegalArgumentException.class, () -> new InboxEvent("orders", "m-1",
                InboxOutcome.PROCESSED, null, Duration.ofNanos(-1), "m"));
    }
}
