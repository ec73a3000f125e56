package io.github.txinbox.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.github.txinbox.InboxRepository;
import jakarta.annotation.Resource;
import jakarta.inject.Inject;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;
import jakarta.transaction.UserTransaction;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.util.UUID;
import javax.sql.DataSource;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Item 1: {@code InboxRepository.claim} against the same INSERT sent through plain JDBC on the same datasource, each in
 * a JTA transaction of its own begun and committed by the same {@code UserTransaction}. Rounds alternate between the
 * two; the figures are medians over the rounds of the mean time per transaction.
 */
@Order(1)
@ExtendWith(ArquillianExtension.class)
class ClaimCostBenchmark {

    private static final int WARM_UP = 3_000;
    private static final int PER_ROUND = 2_000;
    private static final int ROUNDS = 7;
    private static final String SCOPE = "bench-claim";

    /** What the repository sends, on the same (default) table. */
    private static final String RAW_INSERT =
            "INSERT INTO \"inbox\" (scope, message_id) VALUES (?, ?) ON CONFLICT (scope, message_id) DO NOTHING";

    /** The same, with JPA's positional parameters, as the repository writes it. */
    private static final String NATIVE_INSERT =
            "INSERT INTO \"inbox\" (scope, message_id) VALUES (?1, ?2) ON CONFLICT (scope, message_id) DO NOTHING";

    @Deployment
    static WebArchive deployment() {
        return Bench.war(ClaimCostBenchmark.class);
    }

    @Inject
    InboxRepository inbox;

    @Resource(lookup = "java:comp/UserTransaction")
    UserTransaction transaction;

    @Resource(lookup = "java:app/jdbc/inbox-it")
    DataSource dataSource;

    @PersistenceContext
    EntityManager entityManager;

    private long claims(int count) throws Exception {
        long start = System.nanoTime();
        for (int i = 0; i < count; i++) {
            String id = UUID.randomUUID().toString();
            transaction.begin();
            boolean claimed = inbox.claim(SCOPE, id);
            transaction.commit();
            if (!claimed) {
                throw new IllegalStateException("a fresh id was not claimed");
            }
        }
        return System.nanoTime() - start;
    }

    /**
     * The claim's statement sent straight through the container's {@code EntityManager}, without the repository's
     * checks (argument validation, the transaction's status) and query settings: what JPA itself costs.
     */
    private long nativeQueries(int count) throws Exception {
        long start = System.nanoTime();
        for (int i = 0; i < count; i++) {
            String id = UUID.randomUUID().toString();
            transaction.begin();
            int inserted = entityManager.createNativeQuery(NATIVE_INSERT)
                    .setParameter(1, SCOPE).setParameter(2, id).executeUpdate();
            transaction.commit();
            if (inserted != 1) {
                throw new IllegalStateException("a fresh id was not inserted");
            }
        }
        return System.nanoTime() - start;
    }

    private long rawInserts(int count, boolean openPersistenceContext) throws Exception {
        long start = System.nanoTime();
        for (int i = 0; i < count; i++) {
            String id = UUID.randomUUID().toString();
            transaction.begin();
            if (openPersistenceContext) {
                // What a handler that uses JPA does anyway: the transaction's persistence context opens (and closes
                // at commit) whether or not the inbox uses it.
                entityManager.getDelegate();
            }
            int inserted;
            try (Connection connection = dataSource.getConnection();
                    PreparedStatement insert = connection.prepareStatement(RAW_INSERT)) {
                insert.setString(1, SCOPE);
                insert.setString(2, id);
                inserted = insert.executeUpdate();
            }
            transaction.commit();
            if (inserted != 1) {
                throw new IllegalStateException("a fresh id was not inserted");
            }
        }
        return System.nanoTime() - start;
    }

    @Test
    void claimAgainstRawInsert() throws Exception {
        claims(WARM_UP);
        rawInserts(WARM_UP, false);
        rawInserts(WARM_UP, true);
        nativeQueries(WARM_UP);
        Results.Rounds claim = new Results.Rounds();
        Results.Rounds raw = new Results.Rounds();
        Results.Rounds rawWithContext = new Results.Rounds();
        Results.Rounds nativeQuery = new Results.Rounds();
        for (int round = 0; round < ROUNDS; round++) {
            // Rotate which goes first, so that none always follows another's garbage.
            for (int k = 0; k < 4; k++) {
                switch ((round + k) % 4) {
                    case 0 -> raw.add(rawInserts(PER_ROUND, false) / 1e3 / PER_ROUND);
                    case 1 -> claim.add(claims(PER_ROUND) / 1e3 / PER_ROUND);
                    case 2 -> rawWithContext.add(rawInserts(PER_ROUND, true) / 1e3 / PER_ROUND);
                    default -> nativeQuery.add(nativeQueries(PER_ROUND) / 1e3 / PER_ROUND);
                }
            }
        }
        assertEquals(ROUNDS, claim.size());
        String runs = ROUNDS + " rounds of " + PER_ROUND;
        Results.record("1", "claim vs raw JDBC INSERT, time per transaction",
                Results.format(raw.median(), "µs"), Results.format(claim.median(), "µs"),
                claim.median() / raw.median(), "<= 1.10", runs);
        Results.record("1", "claim vs raw JDBC INSERT with the transaction's persistence context open",
                Results.format(rawWithContext.median(), "µs"), Results.format(claim.median(), "µs"),
                claim.median() / rawWithContext.median(), "-", runs);
        Results.record("1", "claim vs the same native query sent straight through the EntityManager",
                Results.format(nativeQuery.median(), "µs"), Results.format(claim.median(), "µs"),
                claim.median() / nativeQuery.median(), "-", runs);
        Results.record("1", "for comparison: that native query vs raw JDBC with the persistence context open",
                Results.format(rawWithContext.median(), "µs"), Results.format(nativeQuery.median(), "µs"),
                nativeQuery.median() / rawWithContext.median(), "-", runs);
    }
}
