package io.github.txinbox;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

class InboxResultTest {

    @Test
    void carriesOutcomeAndReason() {
        assertEquals(InboxOutcome.PROCESSED, InboxResult.processed().outcome());
        assertNull(InboxResult.processed().reason());
        assertEquals(InboxOutcome.DUPLICATE, InboxResult.duplicate().outcome());
        assertEquals("out of stock", InboxResult.retry("out of stock").reason());
        assertEquals(InboxOutcome.SKIPPED, InboxResult.skipped("test order").outcome());
        assertEquals("RETRY (out of stock)", InboxResult.retry("out of stock").toString());
    }

    @Test
    void isAValue() {
        assertEquals(InboxResult.skipped("a"), InboxResult.skipped("a"));
        assertEquals(InboxResult.skipped("a").hashCode(), InboxResult.skipped("a").hashCode());
        assertNotEquals(InboxResult.skipped("a"), InboxResult.retry("a"));
        assertNotEquals(InboxResult.skipped("a"), InboxResult.skipped("b"));
    }

    @Test
    void skipAndRetryNeedAReason() {
        assertThrows(IllegalArgumentException.class, () -> InboxResult.skipped(null));
        assertThrows(IllegalArgumentException.class, () -> InboxResult.retry(" "));
    }
}
