package io.github.txinbox;

import jakarta.persistence.EntityManager;
import java.util.function.Supplier;
import org.hibernate.Session;

/**
 * Hibernate's connection, through {@code Session.doReturningWork}: loaded only where {@link ProviderConnection} found
 * Hibernate to be the provider and its {@code Session} visible to the library. Hibernate turns a failed statement into
 * its {@code JDBCException}, a {@code PersistenceException} with the driver's exception as its cause.
 */
final class HibernateConnection extends ProviderConnection {

    @Override
    String description() {
        return "on the transaction's own connection, through Hibernate's Session.doReturningWork";
    }

    @Override
    <T> T run(EntityManager entityManager, Work<T> onConnection, Supplier<T> asNativeQuery) {
        return entityManager.unwrap(Session.class).doReturningWork(onConnection::run);
    }
}
