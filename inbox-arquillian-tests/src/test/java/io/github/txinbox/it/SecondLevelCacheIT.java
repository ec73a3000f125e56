package io.github.txinbox.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.txinbox.InboxRepository;
import io.github.txinbox.it.app.Note;
import io.github.txinbox.it.app.Transactions;
import io.github.txinbox.it.harness.Deployments;
import jakarta.annotation.Resource;
import jakarta.inject.Inject;
import jakarta.persistence.EntityManager;
import jakarta.persistence.EntityManagerFactory;
import jakarta.persistence.PersistenceContext;
import jakarta.persistence.PersistenceUnit;
import jakarta.transaction.UserTransaction;
import java.time.Instant;
import java.util.UUID;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * With Hibernate's second-level cache on, the inbox's native statements leave cached entities alone: they declare
 * the inbox table as their only query space, so Hibernate has no reason to evict other regions.
 */
@ExtendWith(ArquillianExtension.class)
@Tag("hibernate") // Hibernate's second-level cache
class SecondLevelCacheIT {

    @Deployment
    static WebArchive deployment() {
        return Deployments.withSecondLevelCache(
                Deployments.withPersistenceXml(Deployments.war(SecondLevelCacheIT.class), "cached-persistence.xml"));
    }

    @Inject
    InboxRepository inbox;

    @PersistenceContext
    EntityManager entityManager;

    @PersistenceUnit
    EntityManagerFactory entityManagerFactory;

    @Resource(lookup = "java:comp/UserTransaction")
    UserTransaction transaction;

    private Note cachedNote() throws Exception {
        Note note = new Note("cached");
        Transactions.commit(transaction, () -> {
            entityManager.persist(note);
            return null;
        });
        Transactions.commit(transaction, () -> entityManager.find(Note.class, note.getId()));
        assertTrue(entityManagerFactory.getCache().contains(Note.class, note.getId()), "the note is not cached");
        return note;
    }

    @Test
    void aClaimKeepsCachedEntities() throws Exception {
        Note note = cachedNote();
        assertTrue(Transactions.commit(transaction, () -> inbox.claim("orders", "ID:" + UUID.randomUUID())));
        assertTrue(entityManagerFactory.getCache().contains(Note.class, note.getId()),
                "the claim evicted the second-level cache");
    }

    @Test
    void aCleanupBatchKeepsCachedEntities() throws Exception {
        Note note = cachedNote();
        assertEquals(0, (int) Transactions.commit(transaction,
                () -> inbox.deleteExpiredBatch(Instant.parse("1999-01-01T00:00:00Z"), 10)));
        assertTrue(entityManagerFactory.getCache().contains(Note.class, note.getId()),
                "the cleanup evicted the second-level cache");
    }
}
