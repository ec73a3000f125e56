package io.github.txinbox;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import jakarta.persistence.EntityManager;
import jakarta.transaction.Status;
import jakarta.transaction.TransactionSynchronizationRegistry;
import java.lang.reflect.Field;
import java.lang.reflect.InvocationHandler;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.hibernate.Session;
import org.hibernate.jdbc.ReturningWork;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The repository's claims on the provider's own connection, against a real PostgreSQL: an entity manager whose
 * Hibernate {@code Session} runs the work on a JDBC connection in a transaction, as Hibernate's
 * {@code doReturningWork} does, and fails the test if a native query is made. The containers' legs run the same
 * claims through the real providers.
 */
class InboxRepositoryOnConnectionTest {

    private static EmbeddedPostgres server;

    private Connection connection;
    private final AtomicBoolean markedForRollback = new AtomicBoolean();
    private final AtomicInteger works = new AtomicInteger();

    @BeforeAll
    static void start() throws Exception {
        server = EmbeddedPostgres.builder().setServerConfig("listen_addresses", "127.0.0.1").start();
    }

    @AfterAll
    static void stop() throws Exception {
        server.close();
    }

    @BeforeEach
    void freshTableAndTransaction() throws SQLException {
        try (Connection setUp = connect(); Statement statement = setUp.createStatement()) {
            statement.execute("DROP TABLE IF EXISTS inbox");
            statement.execute(InboxSchema.createTableSql(InboxTable.DEFAULT));
        }
        connection = connect();
        connection.setAutoCommit(false);
        execute(connection, "SET LOCAL lock_timeout = '7s'");
    }

    @AfterEach
    void endTransaction() throws SQLException {
        connection.rollback();
        connection.close();
    }

    private static Connection connect() throws SQLException {
        return server.getPostgresDatabase().getConnection();
    }

    private static void execute(Connection on, String sql) throws SQLException {
        try (Statement statement = on.createStatement()) {
            statement.execute(sql);
        }
    }

    private String lockTimeout() throws SQLException {
        try (Statement statement = connection.createStatement();
                ResultSet row = statement.executeQuery("SHOW lock_timeout")) {
            row.next();
            return row.getString(1);
        }
    }

    @Test
    void aNewIdIsClaimedAndADuplicateIsNotOnTheSameConnection() throws Exception {
        InboxRepository repository = repository(InboxSettings.DEFAULTS);
        assertTrue(repository.claim("orders", "ID:1"));
        assertEquals("7s", lockTimeout(), "the claim puts the transaction's lock_timeout back");
        assertFalse(repository.claim("orders", "ID:1"));
        assertEquals("7s", lockTimeout(), "a duplicate puts it back too");
        assertEquals(Set.of("ID:2", "ID:3"), repository.claimAll("orders", List.of("ID:1", "ID:2", "ID:3", "ID:2")));
        assertEquals("7s", lockTimeout());
        assertEquals(3, works.get(), "every claim went through the session's work");
        try (Statement statement = connection.createStatement();
                ResultSet row = statement.executeQuery("SELECT count(*) FROM inbox WHERE scope = 'orders'")) {
            row.next();
            assertEquals(3, row.getInt(1), "the markers are in this connection's transaction");
        }
        assertFalse(markedForRollback.get());
    }

    @Test
    @Timeout(30)
    void aMarkerHeldPastTheBoundIsInboxMarkerHeldExceptionAndMarksTheTransaction() throws Exception {
        InboxSettings bounded = new InboxSettings(InboxTable.DEFAULT, true, "", InboxLimits.MAX_SCOPE_BYTES,
                InboxLimits.DEFAULT_MESSAGE_ID_BYTES, Duration.ofMinutes(5), Duration.ofMillis(200));
        try (Connection holder = connect()) {
            holder.setAutoCommit(false);
            execute(holder, "INSERT INTO inbox (scope, message_id) VALUES ('orders', 'ID:held')");
            InboxRepository repository = repository(bounded);
            InboxMarkerHeldException held = assertThrows(InboxMarkerHeldException.class,
                    () -> repository.claim("orders", "ID:held"));
            SQLException cause = assertInstanceOf(SQLException.class, held.getCause().getCause());
            assertEquals("55P03", cause.getSQLState());
            assertTrue(markedForRollback.get(), "the transaction was not marked for rollback");
            holder.rollback();
        }
    }

    /** A repository on the test's connection, through a Hibernate session that runs work there. */
    private InboxRepository repository(InboxSettings settings) throws ReflectiveOperationException {
        InvocationHandler sessionHandler = (proxy, method, args) -> {
            if (method.getName().equals("doReturningWork")) {
                works.incrementAndGet();
                try {
                    return ((ReturningWork<?>) args[0]).execute(connection);
                } catch (SQLException e) {
                    // What Hibernate throws: its JDBCException, a PersistenceException caused by the driver's.
                    throw new org.hibernate.JDBCException("error executing work", e);
                }
            }
            throw new UnsupportedOperationException("Session." + method.getName());
        };
        Session session = (Session) Proxy.newProxyInstance(Session.class.getClassLoader(),
                new Class<?>[] {Session.class}, sessionHandler);
        EntityManager entityManager = (EntityManager) Proxy.newProxyInstance(EntityManager.class.getClassLoader(),
                new Class<?>[] {EntityManager.class}, (proxy, method, args) -> switch (method.getName()) {
                    case "getDelegate" -> session;
                    case "unwrap" -> {
                        assertEquals(Session.class, args[0]);
                        yield session;
                    }
                    default -> throw new UnsupportedOperationException("EntityManager." + method.getName()
                            + ": the claims go on the session's connection");
                });
        TransactionSynchronizationRegistry transactions = (TransactionSynchronizationRegistry) Proxy.newProxyInstance(
                TransactionSynchronizationRegistry.class.getClassLoader(),
                new Class<?>[] {TransactionSynchronizationRegistry.class}, (proxy, method, args) -> {
                    switch (method.getName()) {
                        case "getTransactionStatus":
                            return Status.STATUS_ACTIVE;
                        case "setRollbackOnly":
                            markedForRollback.set(true);
                            return null;
                        default:
                            throw new UnsupportedOperationException(method.getName());
                    }
                });
        InboxRepository repository = new InboxRepository();
        set(repository, "entityManager", entityManager);
        set(repository, "transactions", transactions);
        set(repository, "settings", settings);
        repository.init();
        return repository;
    }

    private static void set(Object target, String name, Object value) throws ReflectiveOperationException {
        Field field = InboxRepository.class.getDeclaredField(name);
        field.setAccessible(true);
        field.set(target, value);
    }
}
