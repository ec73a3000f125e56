package io.github.txinbox;

import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceException;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Supplier;
import java.util.logging.Logger;

/**
 * The way to the JDBC connection of the current transaction that the persistence provider offers, on which the
 * repository sends its claims: a statement sent there skips the provider's native-query machinery (its parsing,
 * binding and result handling), the larger part of what a claim cost over its bare statement. Hibernate offers
 * {@code Session.doReturningWork}; EclipseLink {@code unwrap(Connection.class)}, which inside a transaction hands
 * over the connection the unit of work keeps until the transaction ends. Elsewhere the claims go as native queries.
 *
 * <p>Chosen once per provider, from the class of the {@link EntityManager}'s delegate, by the interface the provider's
 * own entity manager implements, and logged then: the start-up check makes the first choice when the application
 * starts ({@link InboxRepository#verifyTable}). Either way the statement runs on the connection the provider has
 * enlisted in the transaction, so the claim commits or rolls back with the handler's own writes.
 */
abstract class ProviderConnection {

    private static final Logger LOG = Logger.getLogger(InboxRepository.class.getName());

    static final String HIBERNATE_SESSION = "org.hibernate.Session";
    static final String ECLIPSELINK_ENTITY_MANAGER = "org.eclipse.persistence.jpa.JpaEntityManager";

    private static final ClassValue<ProviderConnection> BY_PROVIDER = new ClassValue<>() {
        @Override
        protected ProviderConnection computeValue(Class<?> delegate) {
            ProviderConnection chosen = choose(delegate, ProviderConnection.class.getClassLoader());
            LOG.info(() -> "The inbox claims " + chosen.description() + " (persistence provider's entity manager: "
                    + delegate.getName() + ")");
            return chosen;
        }
    };

    /** A statement run on a connection. */
    @FunctionalInterface
    interface Work<T> {
        /**
         * Runs on the transaction's connection, which it must not close.
         *
         * @param connection the connection
         * @return what the statement returned
         * @throws SQLException when the statement fails
         */
        T run(Connection connection) throws SQLException;
    }

    /**
     * The choice for the provider of an entity manager that is in a transaction.
     *
     * @param entityManager the container's entity manager
     * @return the provider's way, chosen once for its class
     */
    static ProviderConnection of(EntityManager entityManager) {
        return BY_PROVIDER.get(entityManager.getDelegate().getClass());
    }

    /**
     * Chooses the way for a provider's entity manager class.
     *
     * @param delegate the class of the provider's own entity manager
     * @param library  the class loader of the library, which must see Hibernate's {@code Session} to call it
     * @return the way
     */
    static ProviderConnection choose(Class<?> delegate, ClassLoader library) {
        Set<String> types = typeNames(delegate);
        if (types.contains(HIBERNATE_SESSION)) {
            if (!seesTheSameType(library, HIBERNATE_SESSION, delegate)) {
                return new NativeQueries("as native queries: the persistence unit's provider is Hibernate, but its "
                        + HIBERNATE_SESSION + " is not visible to the library's class loader");
            }
            return new HibernateConnection();
        }
        if (types.contains(ECLIPSELINK_ENTITY_MANAGER)) {
            return new UnwrappedConnection();
        }
        return new NativeQueries("as native queries: the library knows no way to the transaction's connection for "
                + "this persistence provider");
    }

    /**
     * Says how the claims go, for the log.
     *
     * @return a phrase after "The inbox claims"
     */
    abstract String description();

    /**
     * Runs a statement on the transaction's connection, or as a native query where the provider offers none.
     *
     * @param entityManager the container's entity manager, in an active transaction
     * @param onConnection  the statement on the connection
     * @param asNativeQuery the same statement as a native query
     * @return what the statement returned
     * @throws PersistenceException when the statement fails, with the driver's {@link SQLException} in its causes
     */
    abstract <T> T run(EntityManager entityManager, Work<T> onConnection, Supplier<T> asNativeQuery);

    private static Set<String> typeNames(Class<?> type) {
        Set<String> names = new HashSet<>();
        Deque<Class<?>> pending = new ArrayDeque<>();
        pending.add(type);
        while (!pending.isEmpty()) {
            Class<?> next = pending.remove();
            if (names.add(next.getName())) {
                if (next.getSuperclass() != null) {
                    pending.add(next.getSuperclass());
                }
                pending.addAll(List.of(next.getInterfaces()));
            }
        }
        return names;
    }

    private static boolean seesTheSameType(ClassLoader library, String name, Class<?> delegate) {
        try {
            return Class.forName(name, false, library).isAssignableFrom(delegate);
        } catch (ClassNotFoundException | LinkageError e) {
            return false;
        }
    }

    /** The statements as native queries of the entity manager. */
    static final class NativeQueries extends ProviderConnection {

        private final String description;

        NativeQueries(String description) {
            this.description = description;
        }

        @Override
        String description() {
            return description;
        }

        @Override
        <T> T run(EntityManager entityManager, Work<T> onConnection, Supplier<T> asNativeQuery) {
            return asNativeQuery.get();
        }
    }

    /** EclipseLink's connection, from {@code unwrap(Connection.class)} inside the transaction. */
    static final class UnwrappedConnection extends ProviderConnection {

        @Override
        String description() {
            return "on the transaction's own connection, from EclipseLink's EntityManager.unwrap(Connection.class)";
        }

        @Override
        <T> T run(EntityManager entityManager, Work<T> onConnection, Supplier<T> asNativeQuery) {
            Connection connection = entityManager.unwrap(Connection.class);
            if (connection == null) {
                // EclipseLink hands over none outside a transaction; the repository checked there is one, so this
                // is a set-up the library does not know: the native query still works there.
                return asNativeQuery.get();
            }
            try {
                return onConnection.run(connection);
            } catch (SQLException e) {
                throw new PersistenceException(e.getMessage(), e);
            }
        }
    }
}
