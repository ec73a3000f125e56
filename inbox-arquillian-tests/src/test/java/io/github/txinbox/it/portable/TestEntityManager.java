package io.github.txinbox.it.portable;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;

/**
 * Hands the test persistence unit's container-managed {@link EntityManager} to in-container test classes: Open
 * Liberty does not inject {@code @PersistenceContext} into an Arquillian test instance, while CDI injects this bean
 * everywhere.
 */
@ApplicationScoped
public class TestEntityManager {

    @PersistenceContext
    private EntityManager entityManager;

    /**
     * Returns the transaction-scoped entity manager.
     *
     * @return the entity manager
     */
    public EntityManager get() {
        return entityManager;
    }
}
