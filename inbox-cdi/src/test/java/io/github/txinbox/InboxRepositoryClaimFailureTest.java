package io.github.txinbox;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceException;
import jakarta.persistence.Query;
import jakarta.transaction.Status;
import jakarta.transaction.TransactionSynchronizationRegistry;
import java.lang.reflect.Field;
import java.lang.reflect.Proxy;
import java.sql.SQLException;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

/**
 * The repository says what a failed claim means: the SQLSTATE in the failure's cause chain becomes a typed exception
 * that keeps the failure as its cause, and the transaction is marked for rollback.
 */
class InboxRepositoryClaimFailureTest {

    private static PersistenceException failed(String sqlState) {
        return new PersistenceException("could not execute statement",
                new SQLException("ERROR from PostgreSQL", sqlState));
    }

    @Test
    void aMarkerHeldPastTheBoundIsInboxMarkerHeldException() {
        PersistenceException failure = failed("55P03");
        RuntimeException refused = InboxRepository.claimRefused(failure, Duration.ofSeconds(10));
        InboxMarkerHeldException held = assertInstanceOf(InboxMarkerHeldException.class, refused);
        assertSame(failure, held.getCause());
        assertEquals("another transaction held the marker for longer than PT10S (txinbox.claim.max-wait): a copy "
                + "still being processed, or a transaction prepared and in doubt (see pg_prepared_xacts)",
                held.getMessage());
    }

    @Test
    void aSerializationFailureOrADeadlockIsInboxConflictException() {
        for (String state : new String[] {"40001", "40P01"}) {
            PersistenceException failure = failed(state);
            RuntimeException refused = InboxRepository.claimRefused(failure, Duration.ofSeconds(10));
            InboxConflictException conflict = assertInstanceOf(InboxConflictException.class, refused);
            assertSame(failure, conflict.getCause());
            assertEquals(state, conflict.sqlState());
            assertEquals("the claim conflicted with a concurrent transaction (SQLSTATE " + state + ")",
                    conflict.getMessage());
        }
    }

    @Test
    void anyOtherFailureIsThrownAsItIs() {
        PersistenceException missingTable = failed("42P01");
        assertSame(missingTable, InboxRepository.claimRefused(missingTable, Duration.ofSeconds(10)));
        IllegalStateException noSql = new IllegalStateException("could not serialize access");
        assertSame(noSql, InboxRepository.claimRefused(noSql, Duration.ofSeconds(10)), "only the SQLSTATE counts");
    }

    @Test
    void claimThrowsTheTypedExceptionAndMarksTheTransactionForRollback() throws Exception {
        PersistenceException failure = failed("55P03");
        AtomicBoolean markedForRollback = new AtomicBoolean();
        InboxRepository repository = repository(failure, markedForRollback);
        repository.init();
        InboxMarkerHeldException held = assertThrows(InboxMarkerHeldException.class,
                () -> repository.claim("orders", "ID:1"));
        assertSame(failure, held.getCause());
        assertTrue(held.getMessage().contains("longer than " + InboxSettings.DEFAULT_CLAIM_MAX_WAIT),
                held.getMessage());
        assertTrue(markedForRollback.get(), "the transaction was not marked for rollback");
    }

    @Test
    void claimAllThrowsTheTypedExceptionAndMarksTheTransactionForRollback() throws Exception {
        PersistenceException failure = failed("40P01");
        AtomicBoolean markedForRollback = new AtomicBoolean();
        InboxRepository repository = repository(failure, markedForRollback);
        repository.init();
        InboxConflictException conflict = assertThrows(InboxConflictException.class,
                () -> repository.claimAll("orders", List.of("ID:1", "ID:2")));
        assertSame(failure, conflict.getCause());
        assertEquals("40P01", conflict.sqlState());
        assertTrue(markedForRollback.get(), "the transaction was not marked for rollback");
    }

    @Test
    void claimAllOfNoIdsSendsNothing() throws Exception {
        InboxRepository repository = repository(new IllegalStateException("no statement expected"),
                new AtomicBoolean());
        repository.init();
        assertEquals(Set.of(), repository.claimAll("orders", List.of()));
    }

    /** A repository whose claim statement fails with the failure, in an active transaction. */
    private static InboxRepository repository(RuntimeException failure, AtomicBoolean markedForRollback)
            throws ReflectiveOperationException {
        Query query = proxy(Query.class, (proxy, method, args) -> {
            if (method.getName().equals("getResultList") || method.getName().equals("getSingleResult")) {
                throw failure;
            }
            return proxy;
        });
        // A provider the library knows no connection of: the claims go as native queries.
        EntityManager entityManager = proxy(EntityManager.class, (proxy, method, args) -> switch (method.getName()) {
            case "createNativeQuery" -> query;
            case "getDelegate" -> proxy;
            default -> null;
        });
        TransactionSynchronizationRegistry transactions = proxy(TransactionSynchronizationRegistry.class,
                (proxy, method, args) -> switch (method.getName()) {
                    case "getTransactionStatus" -> Status.STATUS_ACTIVE;
                    case "setRollbackOnly" -> {
                        markedForRollback.set(true);
                        yield null;
                    }
                    default -> throw new UnsupportedOperationException(method.getName());
                });
        InboxRepository repository = new InboxRepository();
        set(repository, "entityManager", entityManager);
        set(repository, "transactions", transactions);
        return repository;
    }

    private static <T> T proxy(Class<T> type, java.lang.reflect.InvocationHandler handler) {
        return type.cast(Proxy.newProxyInstance(type.getClassLoader(), new Class<?>[] {type}, handler));
    }

    private static void set(Object target, String name, Object value) throws ReflectiveOperationException {
        Field field = InboxRepository.class.getDeclaredField(name);
        field.setAccessible(true);
        field.set(target, value);
    }
}
