package io.github.txinbox;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.persistence.EntityManager;
import java.lang.reflect.Proxy;
import java.util.regex.Pattern;
import org.hibernate.Session;
import org.junit.jupiter.api.Test;

/**
 * Which way to the transaction's connection the repository takes for a provider, and the JDBC form of the statements
 * it sends there.
 */
class ProviderConnectionTest {

    private static final ClassLoader LIBRARY = ProviderConnection.class.getClassLoader();

    private static Class<?> implementing(Class<?>... types) {
        return Proxy.newProxyInstance(LIBRARY, types, (proxy, method, args) -> null).getClass();
    }

    @Test
    void hibernatesSessionIsUsedWhereTheLibrarySeesIt() {
        ProviderConnection chosen = ProviderConnection.choose(implementing(Session.class), LIBRARY);
        assertInstanceOf(HibernateConnection.class, chosen);
        assertEquals("on the transaction's own connection, through Hibernate's Session.doReturningWork",
                chosen.description());
    }

    @Test
    void hibernateThatTheLibraryCannotSeeGetsNativeQueries() {
        ProviderConnection chosen = ProviderConnection.choose(implementing(Session.class),
                ClassLoader.getPlatformClassLoader());
        assertInstanceOf(ProviderConnection.NativeQueries.class, chosen);
        assertEquals("as native queries: the persistence unit's provider is Hibernate, but its org.hibernate.Session "
                + "is not visible to the library's class loader", chosen.description());
    }

    @Test
    void anUnknownProviderGetsNativeQueries() {
        ProviderConnection chosen = ProviderConnection.choose(implementing(EntityManager.class), LIBRARY);
        assertInstanceOf(ProviderConnection.NativeQueries.class, chosen);
        assertEquals("as native queries: the library knows no way to the transaction's connection for this "
                + "persistence provider", chosen.description());
    }

    @Test
    void theClaimTakesJdbcParametersInItsOwnOrder() {
        Sql.Jdbc claim = Sql.Jdbc.of(Sql.forTable(Sql.CLAIM, InboxTable.DEFAULT));
        assertFalse(Pattern.compile("\\?\\d").matcher(claim.text()).find(), claim.text());
        assertEquals(3, claim.text().chars().filter(c -> c == '?').count());
        Sql.Jdbc claimAll = Sql.Jdbc.of(Sql.forTable(Sql.CLAIM_ALL, InboxTable.DEFAULT));
        assertEquals(3, claimAll.text().chars().filter(c -> c == '?').count());
        assertTrue(claimAll.text().indexOf("CAST(? AS jsonb)") < claimAll.text().indexOf("SELECT ?, given.id"),
                "the batch names ?2 before ?1: " + claimAll.text());
    }

    @Test
    void parametersAreBoundByTheirNumbersWhereverTheyStand() {
        Sql.Jdbc statement = Sql.Jdbc.of("SELECT ?2, ?1, ?2");
        assertEquals("SELECT ?, ?, ?", statement.text());
        assertArrayEquals(new String[] {"b", "a", "b"}, bound(statement, "a", "b"));
    }

    @Test
    void aStatementWithoutParametersHasNone() {
        assertEquals(Sql.RESTORE_LOCK_TIMEOUT, Sql.Jdbc.of(Sql.RESTORE_LOCK_TIMEOUT).text());
    }

    @Test
    void anUnnumberedOrMissingParameterIsRefused() {
        assertThrows(IllegalArgumentException.class, () -> Sql.Jdbc.of("SELECT ?1, ?"));
        IllegalArgumentException gap = assertThrows(IllegalArgumentException.class, () -> Sql.Jdbc.of("SELECT ?1, ?3"));
        assertTrue(gap.getMessage().startsWith("?2 is missing, though ?3 is named"), gap.getMessage());
        assertThrows(IllegalArgumentException.class, () -> bound(Sql.Jdbc.of("SELECT ?1, ?2"), "only one"));
    }

    /** The values the statement binds, in JDBC's order, read through a connection that records them. */
    private static String[] bound(Sql.Jdbc statement, String... values) {
        String[] bound = new String[(int) statement.text().chars().filter(c -> c == '?').count()];
        java.sql.PreparedStatement recording = (java.sql.PreparedStatement) Proxy.newProxyInstance(LIBRARY,
                new Class<?>[] {java.sql.PreparedStatement.class}, (proxy, method, args) -> {
                    if (method.getName().equals("setString")) {
                        bound[(Integer) args[0] - 1] = (String) args[1];
                    }
                    return null;
                });
        java.sql.Connection connection = (java.sql.Connection) Proxy.newProxyInstance(LIBRARY,
                new Class<?>[] {java.sql.Connection.class}, (proxy, method, args) -> {
                    assertEquals("prepareStatement", method.getName());
                    assertEquals(statement.text(), args[0]);
                    return recording;
                });
        try {
            statement.prepare(connection, values);
        } catch (java.sql.SQLException e) {
            throw new AssertionError(e);
        }
        return bound;
    }
}
