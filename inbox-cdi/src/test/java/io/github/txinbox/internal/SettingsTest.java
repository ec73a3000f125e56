package io.github.txinbox.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.github.txinbox.InboxConfigurationException;
import io.github.txinbox.InboxTable;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class SettingsTest {

    private static Settings read(Map<String, String> values) {
        return Settings.read(property -> Optional.ofNullable(values.get(property)));
    }

    private static String refused(Map<String, String> values) {
        return assertThrows(InboxConfigurationException.class, () -> read(values)).getMessage();
    }

    @Test
    void nothingConfiguredGivesTheDefaults() {
        Settings settings = read(Map.of());
        assertEquals(Settings.DEFAULTS, settings);
        assertNull(settings.table());
        assertEquals(InboxTable.DEFAULT, settings.tableGiven(null));
        assertEquals(255, settings.maxScopeBytes());
        assertEquals(1024, settings.maxMessageIdBytes());
        assertEquals("", settings.defaultKey());
    }

    @Test
    void everySettingIsRead() {
        Settings settings = read(Map.of(Settings.TABLE, " Messaging.Inbox ", Settings.TABLE_CHECK, "FALSE",
                Settings.KEY, "orderId", Settings.SCOPE_BYTES, "64", Settings.MESSAGE_ID_BYTES, "2048"));
        assertEquals(new Settings(new InboxTable("messaging", "inbox"), false, "orderId", 64, 2048), settings);
    }

    @Test
    void blankValuesCountAsNotSet() {
        assertEquals(Settings.DEFAULTS, read(Map.of(Settings.TABLE, " ", Settings.KEY, "", Settings.SCOPE_BYTES, "")));
    }

    @Test
    void theJmsMessageIdHeaderAsKeyIsTheDefault() {
        assertEquals("", read(Map.of(Settings.KEY, "JMSMessageID")).defaultKey());
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
    })
    void aBadValueIsRefusedNamingThePropertyAndValue(String property, String value, String message) {
        String refused = refused(Map.of(property, value));
        assertEquals(message, refused.substring(0, Math.min(refused.length(), message.length())), refused);
    }

    @Test
    void aProducedTableWinsOverNoneConfiguredAndMustAgreeWithAConfiguredOne() {
        InboxTable produced = InboxTable.of("custom.markers");
        assertEquals(produced, Settings.DEFAULTS.tableGiven(produced));
        assertEquals(produced, read(Map.of(Settings.TABLE, "Custom.Markers")).tableGiven(produced));
        assertEquals(InboxTable.of("configured"), read(Map.of(Settings.TABLE, "configured")).tableGiven(null));
        String message = assertThrows(InboxConfigurationException.class,
                () -> read(Map.of(Settings.TABLE, "configured")).tableGiven(produced)).getMessage();
        assertEquals("txinbox.table=configured names another table than the InboxTable the application produces "
                + "(custom.markers); remove one of them", message);
    }

    @Test
    void theTableCheckIsOnUnlessTurnedOff() {
        assertEquals(true, read(Map.of(Settings.TABLE_CHECK, "True")).tableCheck());
        assertEquals(false, read(Map.of(Settings.TABLE_CHECK, "false")).tableCheck());
    }
}
