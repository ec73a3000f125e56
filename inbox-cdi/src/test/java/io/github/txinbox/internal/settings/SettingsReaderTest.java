package io.github.txinbox.internal.settings;

import static io.github.txinbox.InboxSettings.CLAIM_MAX_WAIT;
import static io.github.txinbox.InboxSettings.KEY;
import static io.github.txinbox.InboxSettings.MESSAGE_ID_BYTES;
import static io.github.txinbox.InboxSettings.PREPARED_TRANSACTION_AGE;
import static io.github.txinbox.InboxSettings.SCOPE_BYTES;
import static io.github.txinbox.InboxSettings.TABLE;
import static io.github.txinbox.InboxSettings.TABLE_CHECK;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.txinbox.InboxConfigurationException;
import io.github.txinbox.InboxSettings;
import io.github.txinbox.InboxTable;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class SettingsReaderTest {

    private static InboxSettings read(Map<String, String> values, InboxTable produced) {
        return SettingsReader.read(property -> Optional.ofNullable(values.get(property)), produced);
    }

    private static InboxSettings read(Map<String, String> values) {
        return read(values, null);
    }

    private static String refused(Map<String, String> values) {
        return assertThrows(InboxConfigurationException.class, () -> read(values)).getMessage();
    }

    @Test
    void nothingConfiguredGivesTheDefaults() {
        InboxSettings settings = read(Map.of());
        assertEquals(InboxSettings.DEFAULTS, settings);
        assertEquals(InboxTable.DEFAULT, settings.table());
        assertTrue(settings.tableCheck());
        assertEquals(255, settings.maxScopeBytes());
        assertEquals(1024, settings.maxMessageIdBytes());
        assertEquals("", settings.defaultKey());
        assertEquals(Duration.ofMinutes(5), settings.preparedTransactionAge());
        assertEquals(Duration.ofSeconds(10), settings.claimMaxWait());
    }

    @Test
    void everySettingIsRead() {
        InboxSettings settings = read(Map.of(TABLE, " Messaging.Inbox ", TABLE_CHECK, "FALSE",
                KEY, "orderId", SCOPE_BYTES, "64", MESSAGE_ID_BYTES, "2048", PREPARED_TRANSACTION_AGE, "PT30S",
                CLAIM_MAX_WAIT, "PT0.25S"));
        assertEquals(new InboxSettings(new InboxTable("messaging", "inbox"), false, "orderId", 64, 2048,
                Duration.ofSeconds(30), Duration.ofMillis(250)), settings);
    }

    @Test
    void blankValuesCountAsNotSet() {
        assertEquals(InboxSettings.DEFAULTS, read(Map.of(TABLE, " ", KEY, "", SCOPE_BYTES, "")));
    }

    @Test
    void theJmsMessageIdHeaderAsKeyIsTheDefault() {
        assertEquals("", read(Map.of(KEY, "JMSMessageID")).defaultKey());
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "txinbox.table|a;drop|txinbox.table=a;drop is not valid: Inbox table name 'a;drop' is not a plain SQL identifier",
        "txinbox.table|a.b.c|txinbox.table=a.b.c is not valid: Inbox table name 'a.b.c' is not valid",
        "txinbox.table.check|off|txinbox.table.check=off is not valid: use true or false",
        "txinbox.key|order-id|txinbox.key=order-id is not valid: a JMS property name is a Java identifier",
        "txinbox.key|1st|txinbox.key=1st is not valid",
        "txinbox.limits.scope-bytes|0|txinbox.limits.scope-bytes=0 is not valid: it must lie between 1 and 255",
        "txinbox.limits.scope-bytes|256|txinbox.limits.scope-bytes=256 is not valid: it must lie between 1 and 255",
        "txinbox.limits.message-id-bytes|2049|txinbox.limits.message-id-bytes=2049 is not valid: it must lie between 1 and 2048",
        "txinbox.limits.message-id-bytes|1k|txinbox.limits.message-id-bytes=1k is not valid: expected a whole number",
        "txinbox.health.prepared-transaction-age|5m|txinbox.health.prepared-transaction-age=5m is not valid: expected an ISO-8601 duration",
        "txinbox.health.prepared-transaction-age|-PT1S|txinbox.health.prepared-transaction-age=PT-1S is not valid: it must lie between PT0S and PT876600H",
        "txinbox.claim.max-wait|10s|txinbox.claim.max-wait=10s is not valid: expected an ISO-8601 duration",
        "txinbox.claim.max-wait|PT0S|txinbox.claim.max-wait=PT0S is not valid: it must lie between PT0.001S and PT24H, in whole milliseconds",
        "txinbox.claim.max-wait|PT24H0.001S|txinbox.claim.max-wait=PT24H0.001S is not valid: it must lie between PT0.001S and PT24H",
        "txinbox.claim.max-wait|PT0.0015S|txinbox.claim.max-wait=PT0.0015S is not valid: it must lie between PT0.001S and PT24H, in whole milliseconds",
    })
    void aBadValueIsRefusedNamingThePropertyAndValue(String property, String value, String message) {
        String refused = refused(Map.of(property, value));
        assertEquals(message, refused.substring(0, Math.min(refused.length(), message.length())), refused);
    }

    @Test
    void aProducedTableWinsOverNoneConfiguredAndMustAgreeWithAConfiguredOne() {
        InboxTable produced = InboxTable.of("custom.markers");
        assertEquals(produced, read(Map.of(), produced).table());
        assertEquals(produced, read(Map.of(TABLE, "Custom.Markers"), produced).table());
        assertEquals(InboxTable.of("configured"), read(Map.of(TABLE, "configured")).table());
        String message = assertThrows(InboxConfigurationException.class,
                () -> read(Map.of(TABLE, "configured"), produced)).getMessage();
        assertEquals("txinbox.table=configured names another table than the InboxTable the application produces "
                + "(custom.markers); remove one of them", message);
    }

    @Test
    void theTableCheckIsOnUnlessTurnedOff() {
        assertEquals(true, read(Map.of(TABLE_CHECK, "True")).tableCheck());
        assertEquals(false, read(Map.of(TABLE_CHECK, "false")).tableCheck());
    }
}
