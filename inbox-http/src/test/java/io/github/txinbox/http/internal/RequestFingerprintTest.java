package io.github.txinbox.http.internal;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

class RequestFingerprintTest {

    private static RequestFingerprint fingerprint(String method, String target, String body) {
        return new RequestFingerprint(method, target, new ByteArrayInputStream(body.getBytes(StandardCharsets.UTF_8)));
    }

    @Test
    void theDigestIsTheSameHoweverMuchTheReaderRead() throws IOException {
        byte[] unread = fingerprint("POST", "/orders", "{\"orderId\":1}").finish();
        RequestFingerprint partly = fingerprint("POST", "/orders", "{\"orderId\":1}");
        partly.read(new byte[4]);
        RequestFingerprint closed = fingerprint("POST", "/orders", "{\"orderId\":1}");
        closed.read();
        closed.close();
        RequestFingerprint whole = fingerprint("POST", "/orders", "{\"orderId\":1}");
        assertEquals(13, whole.readAllBytes().length);
        assertEquals(32, unread.length);
        assertArrayEquals(unread, partly.finish());
        assertArrayEquals(unread, closed.finish());
        assertArrayEquals(unread, whole.finish());
        assertArrayEquals(unread, whole.finish(), "a second finish");
    }

    @Test
    void theMethodTheTargetAndTheBodyEachCount() {
        byte[] first = fingerprint("POST", "/orders", "a").finish();
        assertFalse(Arrays.equals(first, fingerprint("PUT", "/orders", "a").finish()));
        assertFalse(Arrays.equals(first, fingerprint("POST", "/orders?x=1", "a").finish()));
        assertFalse(Arrays.equals(first, fingerprint("POST", "/orders", "b").finish()));
        assertFalse(Arrays.equals(first, fingerprint("POST", "/orders", "a ").finish()));
    }
}
