package io.github.txinbox.http.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

class IdempotencyKeysTest {

    private static IdempotencyKeys.Read read(String... values) {
        return IdempotencyKeys.read("Idempotency-Key", List.of(values), 16);
    }

    private static void assertInvalid(String expected, String... values) {
        IdempotencyKeys.Read read = read(values);
        assertInstanceOf(IdempotencyKeys.Invalid.class, read, List.of(values).toString());
        assertTrue(((IdempotencyKeys.Invalid) read).detail().contains(expected), read.toString());
    }

    @Test
    void aBareTokenAndTheDraftsQuotedStringAreTheSameKey() {
        assertEquals(new IdempotencyKeys.Key("8e03978e-40d5"), read("8e03978e-40d5"));
        assertEquals(new IdempotencyKeys.Key("8e03978e-40d5"), read("\"8e03978e-40d5\""));
        assertEquals(new IdempotencyKeys.Key("8e03978e-40d5"), read("  8e03978e-40d5 "));
    }

    @Test
    void aQuotedKeyMayHoldSpacesCommasAndEscapedQuotes() {
        assertEquals(new IdempotencyKeys.Key("a, \"b\" \\c"), read("\"a, \\\"b\\\" \\\\c\""));
    }

    @Test
    void noHeaderIsMissing() {
        assertEquals(new IdempotencyKeys.Missing(), read());
    }

    @Test
    void whatIsNotOneKeyIsInvalid() {
        assertInvalid("has 2 Idempotency-Key headers", "a", "b");
        assertInvalid("is empty", "");
        assertInvalid("is empty", "\"\"");
        assertInvalid("'",  "a,b");
        assertInvalid("other than printable ASCII", "cl\u00e9");
        assertInvalid("other than printable ASCII", "a b");
        assertInvalid("quoted key may not hold", "\"cl\u00e9\"");
        assertInvalid("not one quoted string", "\"abc");
        assertInvalid("not one quoted string", "\"abc\";p=1");
        assertInvalid("17 characters long; the most is 16", "k".repeat(17));
    }
}
