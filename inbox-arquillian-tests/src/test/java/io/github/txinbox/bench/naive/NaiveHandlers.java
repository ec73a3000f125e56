package io.github.txinbox.bench.naive;

import io.github.txinbox.InboxRepository;
import io.github.txinbox.it.app.SqlErrors;
import jakarta.annotation.Resource;
import jakarta.ejb.Stateless;
import jakarta.inject.Inject;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;
import jakarta.persistence.PersistenceException;
import jakarta.transaction.TransactionSynchronizationRegistry;

/**
 * One message handled four ways, each in the container's transaction of the call: claim with the inbox, or check
 * then insert a marker (in a table with a primary key, and in one without), or persist a marker entity and catch the
 * constraint violation. Each writes one effect row when it decides the message is new, so that a duplicate shows as a
 * second row.
 */
@Stateless
public class NaiveHandlers {

    /** The schema of the markers and effects. */
    public static final String SCHEMA = "txinbox_bench";

    /** The ways, by name. */
    public enum Way { INBOX, CHECK_THEN_INSERT_KEYED, CHECK_THEN_INSERT_UNKEYED, PERSIST_AND_CATCH }

    /** What a way decided, as its caller sees it. */
    public enum Decision {
        /** New: the effect was written. */
        NEW,
        /** A duplicate, skipped; the transaction commits. */
        DUPLICATE,
        /**
         * A duplicate, but finding out poisoned the transaction: PostgreSQL aborted it (the next statement, tried
         * here, failed with SQLSTATE 25P02), and JPA marked it for rollback, so the container rolls it back without
         * telling the caller; an MDB's message would be delivered again, and again.
         */
        DUPLICATE_POISONED,
        /** A duplicate, but the transaction is marked for rollback (and the next statement did not fail). */
        DUPLICATE_ROLLBACK_ONLY
    }

    static final String SCOPE = "naive";

    @Inject
    InboxRepository inbox;

    @PersistenceContext
    EntityManager entityManager;

    @Resource(lookup = "java:comp/TransactionSynchronizationRegistry")
    TransactionSynchronizationRegistry transactions;

    /**
     * Handles a message.
     *
     * @param way       how
     * @param messageId the message's id
     * @return what it decided
     */
    public Decision handle(Way way, String messageId) {
        Decision decision = switch (way) {
            case INBOX -> inbox.claim(SCOPE, messageId) ? Decision.NEW : Decision.DUPLICATE;
            case CHECK_THEN_INSERT_KEYED -> checkThenInsert("naive_keyed", messageId);
            case CHECK_THEN_INSERT_UNKEYED -> checkThenInsert("naive_unkeyed", messageId);
            case PERSIST_AND_CATCH -> persistAndCatch(messageId);
        };
        if (decision == Decision.NEW) {
            entityManager.createNativeQuery("INSERT INTO " + SCHEMA + ".effect (way, message_id) VALUES (?1, ?2)")
                    .setParameter(1, way.name()).setParameter(2, messageId).executeUpdate();
        }
        return decision;
    }

    private Decision checkThenInsert(String table, String messageId) {
        Number found = (Number) entityManager.createNativeQuery("SELECT count(*) FROM " + SCHEMA + "." + table
                + " WHERE scope = ?1 AND message_id = ?2").setParameter(1, SCOPE).setParameter(2, messageId)
                .getSingleResult();
        if (found.longValue() > 0) {
            return Decision.DUPLICATE;
        }
        entityManager.createNativeQuery("INSERT INTO " + SCHEMA + "." + table + " (scope, message_id) VALUES (?1, ?2)")
                .setParameter(1, SCOPE).setParameter(2, messageId).executeUpdate();
        return Decision.NEW;
    }

    private Decision persistAndCatch(String messageId) {
        try {
            entityManager.persist(new NaiveMarker(SCOPE, messageId));
            entityManager.flush();
            return Decision.NEW;
        } catch (PersistenceException e) {
            // What users write: a constraint violation means "seen before". Whatever they do next in the
            // transaction shows what became of it.
            try {
                entityManager.createNativeQuery("SELECT 1").getSingleResult();
            } catch (PersistenceException next) {
                if ("25P02".equals(SqlErrors.sqlState(next))) {
                    return Decision.DUPLICATE_POISONED;
                }
                throw next;
            }
            return transactions.getRollbackOnly() ? Decision.DUPLICATE_ROLLBACK_ONLY : Decision.DUPLICATE;
        }
    }
}
