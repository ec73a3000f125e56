package io.github.txinbox.http.internal;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

class RecordedResponseTest {

    private static final byte[] FINGERPRINT = {1, 2, 3};

    @Test
    void itsHeadersSurviveTheirStoredLines() {
        Map<String, String> headers = new LinkedHashMap<>();
        headers.put("Content-Type", "application/json; charset=UTF-8");
        headers.put("Location", "http://127.0.0.1/orders/7?a=b: c");
        RecordedResponse response = new RecordedResponse(FINGERPRINT, 201, headers,
                "{}".getBytes(StandardCharsets.UTF_8));
        assertEquals(headers, RecordedResponse.parseHeaderLines(response.headerLines()));
        assertEquals(Map.of(), RecordedResponse.parseHeaderLines(""));
    }

    @Test
    void itKeepsCopiesOfItsArrays() {
        byte[] body = {9};
        RecordedResponse response = new RecordedResponse(FINGERPRINT, 200, Map.of(), body);
        body[0] = 0;
        response.body()[0] = 0;
        assertArrayEquals(new byte[] {9}, response.body());
        assertTrue(response.answers(new byte[] {1, 2, 3}));
        assertFalse(response.answers(new byte[] {1, 2}));
        assertEquals(response, new RecordedResponse(FINGERPRINT, 200, Map.of(), new byte[] {9}));
    }

    @Test
    void itRefusesWhatCannotBeReplayed() {
        assertThrows(IllegalArgumentException.class, () -> new RecordedResponse(new byte[0], 200, Map.of(),
                new byte[0]));
        assertThrows(IllegalArgumentException.class, () -> new RecordedResponse(new byte[65], 200, Map.of(),
                new byte[0]));
        assertThrows(IllegalArgumentException.class, () -> new RecordedResponse(FINGERPRINT, 99, Map.of(),
                new byte[0]));
        assertThrows(IllegalArgumentException.class, () -> new RecordedResponse(FINGERPRINT, 600, Map.of(),
                new byte[0]));
        assertThrows(IllegalArgumentException.class, () -> new RecordedResponse(FINGERPRINT, 200,
                Map.of("Bad Name", "x"), new byte[0]));
        assertThrows(IllegalArgumentException.class, () -> new RecordedResponse(FINGERPRINT, 200,
                Map.of("Location", "a\r\nSet-Cookie: x"), new byte[0]));
        assertThrows(IllegalArgumentException.class, () -> new RecordedResponse(FINGERPRINT, 200, Map.of(), null));
    }
}
