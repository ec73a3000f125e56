package io.github.txinbox.http.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;

class ResponseColumnsTest {

    private static final String MARKERS = "scope text NOT NULL;message_id text NOT NULL;"
            + "processed_at timestamp with time zone NOT NULL";

    private static final String WITH_RESPONSES = MARKERS + ";request_fingerprint bytea;response_status smallint;"
            + "response_headers text;response_body bytea";

    @Test
    void theMigratedTableIsFit() {
        assertEquals(List.of(), ResponseStore.problems(WITH_RESPONSES));
    }

    @Test
    void eachMissingColumnIsNamedWithItsType() {
        assertEquals(List.of("it has no column request_fingerprint (bytea), where @Idempotent stores responses",
                "it has no column response_status (smallint), where @Idempotent stores responses",
                "it has no column response_headers (text), where @Idempotent stores responses",
                "it has no column response_body (bytea), where @Idempotent stores responses"),
                ResponseStore.problems(MARKERS));
    }

    @Test
    void aColumnMustAllowNullAndHaveItsType() {
        assertEquals(List.of("its column response_status is smallint NOT NULL, not smallint (nullable)",
                "its column response_body is text, not bytea (nullable)"),
                ResponseStore.problems(WITH_RESPONSES.replace("smallint", "smallint NOT NULL")
                        .replace("response_body bytea", "response_body text")));
    }

    @Test
    void aMissingTableIsSaidSo() {
        assertEquals(List.of("it does not exist"), ResponseStore.problems(null));
    }
}
