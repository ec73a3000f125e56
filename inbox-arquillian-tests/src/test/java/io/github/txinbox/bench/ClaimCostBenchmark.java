package io.github.txinbox.bench;

import io.github.txinbox.InboxRepository;
import io.github.txinbox.InboxSettings;
import io.github.txinbox.InboxTable;
import io.github.txinbox.bench.claim.InterceptedClaim;
import jakarta.annotation.Resource;
import jakarta.inject.Inject;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;
import jakarta.transaction.UserTransaction;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.util.ArrayList;
import java.util.List;
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
 * a JTA transaction of its own begun and committed by the same {@code UserTransaction}; also the same INSERT with the
 * persistence context open, and sent through the {@code EntityManager}, to tell where the difference lies; and the
 * claim through {@code @Inbox} on a CDI bean's method, to tell what the interceptors add. Short
 * rounds rotate between the arms; the times are medians over the rounds of the mean time per transaction, the ratios
 * medians of the rounds' ratios.
 */
@Order(1)
@ExtendWith(ArquillianExtension.class)
class ClaimCostBenchmark {

    private static final int WARM_UP = 3_000;
    /*
     * Many short rounds rather than a few long ones: on a shared machine the speed drifts by tens of percent within
     * seconds, and arms timed far apart would carry that drift into their ratio.
     */
    private static final int PER_ROUND = 200;
    private static final int ROUNDS = 71;

    private static final int RAW = 0;
    private static final int CLAIM = 1;
    private static final int RAW_WITH_CONTEXT = 2;
    private static final int NATIVE_QUERY = 3;
    private static final int BARE = 4;
    private static final int INTERCEPTED = 5;
    private static final int ARMS = 6;
    private static final String SCOPE = "bench-claim";

    /**
     * The claim's statement as the repository sends it: {@code Sql.CLAIM} on the repository's table, formatted by
     * {@code Sql.forTable}, read by reflection because {@code Sql} is package-private in the library; the raw JDBC arms
     * send the very text the claim does, so the comparison cannot drift from the repository.
     */
    private String claimStatement;

    /** The claim's statement with JDBC's parameters ({@code ?1}, {@code ?2} and {@code ?3} come in that order). */
    private String rawClaim;

    /** The bound of the default, as the repository passes it. */
    private static final String BOUND = InboxSettings.DEFAULT_CLAIM_MAX_WAIT.toMillis() + "ms";

    /** The claim's statement without its bound: the bare insert, on the repository's table. */
    private String bareInsert;

    @Deployment
    static WebArchive deployment() {
        return Bench.war(ClaimCostBenchmark.class).addPackage(InterceptedClaim.class.getPackage());
    }

    @Inject
    InboxRepository inbox;

    @Resource(lookup = "java:comp/UserTransaction")
    UserTransaction transaction;

    @Resource(lookup = "java:app/jdbc/inbox-it")
    DataSource dataSource;

    @PersistenceContext
    EntityManager entityManager;

    @Inject
    InterceptedClaim intercepted;

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

    /** The claim through {@code @Inbox}: both interceptors, the resolver, the claim, the report after the commit. */
    private long interceptedClaims(int count) throws Exception {
        long start = System.nanoTime();
        for (int i = 0; i < count; i++) {
            String id = UUID.randomUUID().toString();
            transaction.begin();
            intercepted.handle(id);
            transaction.commit();
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
            boolean inserted = !entityManager.createNativeQuery(claimStatement)
                    .setParameter(1, SCOPE).setParameter(2, id).setParameter(3, BOUND).getResultList().isEmpty();
            transaction.commit();
            if (!inserted) {
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
            boolean inserted;
            try (Connection connection = dataSource.getConnection();
                    PreparedStatement insert = connection.prepareStatement(rawClaim)) {
                insert.setString(1, SCOPE);
                insert.setString(2, id);
                insert.setString(3, BOUND);
                try (ResultSet result = insert.executeQuery()) {
                    // A fresh id always inserts, and the row's RETURNING puts the lock_timeout back.
                    inserted = result.next();
                }
            }
            transaction.commit();
            if (!inserted) {
                throw new IllegalStateException("a fresh id was not inserted");
            }
        }
        return System.nanoTime() - start;
    }

    private long bareInserts(int count) throws Exception {
        long start = System.nanoTime();
        for (int i = 0; i < count; i++) {
            String id = UUID.randomUUID().toString();
            transaction.begin();
            int inserted;
            try (Connection connection = dataSource.getConnection();
                    PreparedStatement insert = connection.prepareStatement(bareInsert)) {
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

    /** Reads the claim's statement from the library, as {@code InboxRepository} builds it for its table. */
    private void readStatements() throws ReflectiveOperationException {
        Class<?> sql = Class.forName("io.github.txinbox.Sql", true, InboxRepository.class.getClassLoader());
        Field claim = sql.getDeclaredField("CLAIM");
        Method forTable = sql.getDeclaredMethod("forTable", String.class, InboxTable.class);
        claim.setAccessible(true);
        forTable.setAccessible(true);
        claimStatement = (String) forTable.invoke(null, claim.get(null), inbox.table());
        int scope = claimStatement.indexOf("?1");
        int id = claimStatement.indexOf("?2");
        int bound = claimStatement.indexOf("?3");
        if (scope < 0 || scope > id || id > bound) {
            throw new IllegalStateException("Sql.CLAIM no longer names its parameters ?1, ?2, ?3 in that order; bind "
                    + "the raw arm's parameters as it names them:\n" + claimStatement);
        }
        rawClaim = claimStatement.replaceAll("\\?[1-3]", "?");
        bareInsert = "INSERT INTO " + inbox.table().quotedName() + " (scope, message_id, processed_at) "
                + "VALUES (?, ?, now()) ON CONFLICT (scope, message_id) DO NOTHING";
    }

    @Test
    void claimAgainstRawInsert() throws Exception {
        readStatements();
        warmUp();
        long interceptedBefore = markers(InterceptedClaim.SCOPE);
        boolean statements = Statements.reset();
        // Microseconds per transaction, by round and arm.
        double[][] times = new double[ROUNDS][];
        for (int round = 0; round < ROUNDS; round++) {
            double[] arms = new double[ARMS];
            // Rotate which goes first, so that none always follows another's garbage.
            for (int k = 0; k < ARMS; k++) {
                int arm = (round + k) % ARMS;
                arms[arm] = switch (arm) {
                    case RAW -> rawInserts(PER_ROUND, false);
                    case CLAIM -> claims(PER_ROUND);
                    case RAW_WITH_CONTEXT -> rawInserts(PER_ROUND, true);
                    case NATIVE_QUERY -> nativeQueries(PER_ROUND);
                    case INTERCEPTED -> interceptedClaims(PER_ROUND);
                    default -> bareInserts(PER_ROUND);
                } / 1e3 / PER_ROUND;
            }
            times[round] = arms;
        }
        String runs = ROUNDS + " rounds of " + PER_ROUND + "; the ratio is the median of the rounds' ratios";
        record(times, CLAIM, RAW, "claim vs its statement sent through raw JDBC, time per transaction", "<= 1.10",
                runs);
        record(times, CLAIM, RAW_WITH_CONTEXT,
                "claim vs its statement through raw JDBC with the transaction's persistence context open", "-", runs);
        record(times, CLAIM, NATIVE_QUERY, "claim vs the same native query sent straight through the EntityManager",
                "-", runs);
        record(times, NATIVE_QUERY, RAW_WITH_CONTEXT,
                "for comparison: that native query vs raw JDBC with the persistence context open", "-", runs);
        if (markers(InterceptedClaim.SCOPE) - interceptedBefore != (long) ROUNDS * PER_ROUND) {
            throw new IllegalStateException("@Inbox claimed " + (markers(InterceptedClaim.SCOPE) - interceptedBefore)
                    + " markers in " + ROUNDS * PER_ROUND + " calls");
        }
        record(times, INTERCEPTED, CLAIM, "@Inbox around the claim (both interceptors, the resolver, the report after "
                + "the commit) vs the claim called directly: what the interceptors add", "-", runs
                + "; the interceptors' own work, the median of the rounds' differences: "
                + Results.format(medianDifference(times, INTERCEPTED, CLAIM), "µs").trim() + " per call");
        record(times, RAW, BARE, "for comparison, through raw JDBC: the claim's statement with its bound (lock_timeout "
                + "set and put back) vs a bare INSERT ... ON CONFLICT DO NOTHING", "-", runs);
        if (statements) {
            // Inside PostgreSQL alone: the claim's statement against the bare INSERT, per call, over every round.
            List<Statements.Cost> costs = Statements.since(ROUNDS * PER_ROUND);
            Statements.Cost claim = Statements.claim(costs);
            Statements.Cost bare = Statements.bareMarkerInsert(costs);
            if (claim == null || bare == null) {
                throw new IllegalStateException("pg_stat_statements lists no claim or no bare INSERT: " + costs);
            }
            Results.record("1", "PostgreSQL's executor time per call: the claim's statement with its bound vs the bare "
                    + "INSERT", Results.format(bare.meanMicros(), "µs"), Results.format(claim.meanMicros(), "µs"),
                    claim.meanMicros() / bare.meanMicros(), "<= 1.05", "pg_stat_statements over the measured rounds; "
                            + claim.calls() + " claims' statements (the claim arm, the raw arms and the native query "
                            + "arm), " + bare.calls() + " bare INSERTs");
        }
    }

    /** The median over the rounds of one arm's time per transaction minus another's, in microseconds. */
    private static double medianDifference(double[][] times, int measured, int baseline) {
        List<Double> differences = new ArrayList<>();
        for (double[] round : times) {
            differences.add(round[measured] - round[baseline]);
        }
        return Results.median(differences);
    }

    private long markers(String scope) throws Exception {
        try (Connection connection = dataSource.getConnection();
                PreparedStatement count = connection.prepareStatement("SELECT count(*) FROM "
                        + inbox.table().quotedName() + " WHERE scope = ?")) {
            count.setString(1, scope);
            try (ResultSet result = count.executeQuery()) {
                result.next();
                return result.getLong(1);
            }
        }
    }

    /** Runs each arm until the JIT has compiled it; a profile ({@link JfrSplit}) leaves these calls out. */
    private void warmUp() throws Exception {
        claims(WARM_UP);
        rawInserts(WARM_UP, false);
        rawInserts(WARM_UP, true);
        nativeQueries(WARM_UP);
        bareInserts(WARM_UP);
        interceptedClaims(WARM_UP);
    }

    /**
     * Records one arm against another: the medians of their times, and the median of their ratio in each round (arms
     * of one round run within a second of each other, so the drift of the machine's speed cancels out).
     */
    private static void record(double[][] times, int measured, int baseline, String measure, String target,
            String runs) {
        List<Double> measuredTimes = new ArrayList<>();
        List<Double> baselineTimes = new ArrayList<>();
        List<Double> ratios = new ArrayList<>();
        for (double[] round : times) {
            measuredTimes.add(round[measured]);
            baselineTimes.add(round[baseline]);
            ratios.add(round[measured] / round[baseline]);
        }
        Results.record("1", measure, Results.format(Results.median(baselineTimes), "µs"),
                Results.format(Results.median(measuredTimes), "µs"), Results.median(ratios), target, runs);
    }
}
