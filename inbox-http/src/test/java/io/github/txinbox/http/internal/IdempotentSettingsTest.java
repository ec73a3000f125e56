package io.github.txinbox.http.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.github.txinbox.InboxConfigurationException;
import io.github.txinbox.http.IdempotentSettings;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** inbox-http's settings as the producer reads them: the default, a value, and each bad value named. */
class IdempotentSettingsTest {

    private static IdempotentSettings read(Map<String, String> values) {
        return IdempotentSettingsProducer.read(property -> Optional.ofNullable(values.get(property)));
    }

    @Test
    void nothingSetIsTheDefault() {
        assertEquals(IdempotentSettings.DEFAULTS, read(Map.of()));
        assertEquals(65_536, IdempotentSettings.DEFAULTS.maxResponseBytes());
    }

    @Test
    void theLimitIsReadAndMayBeItsBounds() {
        assertEquals(1024, read(Map.of(IdempotentSettings.MAX_RESPONSE_BYTES, "1024")).maxResponseBytes());
        assertEquals(0, read(Map.of(IdempotentSettings.MAX_RESPONSE_BYTES, "0")).maxResponseBytes());
        assertEquals(IdempotentSettings.MAX_RESPONSE_BYTES_CEILING, read(Map.of(IdempotentSettings.MAX_RESPONSE_BYTES,
                Integer.toString(IdempotentSettings.MAX_RESPONSE_BYTES_CEILING))).maxResponseBytes());
    }

    @Test
    void aValueThatIsNoNumberIsNamed() {
        InboxConfigurationException e = assertThrows(InboxConfigurationException.class,
                () -> read(Map.of(IdempotentSettings.MAX_RESPONSE_BYTES, "64k")));
        assertEquals("txinbox.http.max-response-bytes=64k is not valid: expected a whole number", e.getMessage());
    }

    @Test
    void aValueOutOfRangeIsNamedWithTheRange() {
        for (String value : new String[] {"-1", Integer.toString(IdempotentSettings.MAX_RESPONSE_BYTES_CEILING + 1)}) {
            InboxConfigurationException e = assertThrows(InboxConfigurationException.class,
                    () -> read(Map.of(IdempotentSettings.MAX_RESPONSE_BYTES, value)));
            assertEquals("txinbox.http.max-response-bytes=" + value + " is not valid: it must lie between 0 and "
                    + IdempotentSettings.MAX_RESPONSE_BYTES_CEILING, e.getMessage());
        }
    }
}
