package io.github.txinbox.http.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class ProblemsTest {

    @Test
    void eachProblemHasATypeOfItsOwn() {
        assertEquals("urn:txinbox:problem:key-reused", Problems.KEY_REUSED.type());
        assertEquals(422, Problems.KEY_REUSED.status());
        assertEquals("urn:txinbox:problem:in-progress", Problems.IN_PROGRESS.type());
        assertEquals(409, Problems.IN_PROGRESS.status());
    }

    @Test
    void theDetailIsEscapedAsAJsonString() {
        assertEquals("\"a \\\"quoted\\\" \\\\ key\\n\\u0001\"", "\"" + Problems.json("a \"quoted\" \\ key\n\u0001")
                + "\"");
    }
}
