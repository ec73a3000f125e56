package io.github.txinbox;

import io.github.txinbox.bench.Results;
import io.github.txinbox.it.app.TestDatabase;
import java.security.SecureRandom;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;

/**
 * Item 9: the table layouts that keep every guarantee, side by side in one run, through JDBC on the run's PostgreSQL
 * with the library's own statements ({@link Sql}): today's two B-trees (the primary key and one on
 * {@code processed_at}), a BRIN index on {@code processed_at} instead of the second B-tree (32 and 128 pages per
 * range), no second index, and today's with {@code fillfactor = 90}. Each layout is a table of its own holding
 * {@value #LIVE} live markers and {@value #EXPIRED} expired ones (older, so first in the heap, as after steady use),
 * filled alike. What each layout changes is PostgreSQL's work, which this measures without a server in front:
 * <ul>
 *   <li>the write: transactions of the claim and a handler's row (an invoice), against the invoice alone, in rounds
 *       where the layouts take turns; WAL per transaction; and the latency of those transactions (p50, p99) at the
 *       table's size;</li>
 *   <li>{@code @Idempotent}'s shape: the claim, then the UPDATE that stores a response, against one INSERT of the
 *       whole row; and the share of those UPDATEs that were HOT; and the one-write shape it could take instead (the
 *       key's turn as an advisory lock and a read, then the whole row in one INSERT), against both;</li>
 *   <li>the purge: the library's batched DELETE of the expired markers, batch 10 000, moving its lower bound as the
 *       library's cleanup does, for at most {@value #PURGE_SECONDS} s per layout.</li>
 * </ul>
 * Run it with {@code -Dit.test='LayoutBenchmark,ReportBenchmark'} (docs/benchmarks.md).
 */
@Order(9)
class LayoutBenchmark {

    private static final int LIVE = Integer.getInteger("txinbox.bench.layout.live", 10_000_000);
    private static final int EXPIRED = Integer.getInteger("txinbox.bench.layout.expired", 1_000_000);
    private static final int PER_ROUND = 1_000;
    private static final int ROUNDS = 5;
    private static final int PURGE_BATCH = 10_000;
    private static final int PURGE_SECONDS = 60;
    private static final String SCHEMA = Results.SCHEMA;
    private static final String INVOICE = SCHEMA + ".layout_invoice";
    private static final String LOCK_TIMEOUT = "5000ms";
    private static final Pattern NUMBERED = Pattern.compile("\\?(\\d+)");

    /**
     * The one-write shape's first statement, measured here and not shipped: takes the turn of the key ?2 in scope ?1
     * (a transaction-scoped advisory lock, without waiting) and reads the response stored under the key, if any, as
     * {@link Sql#RECORDED_RESPONSE} reads it. A retry would wait for the turn instead of running beside the first
     * request, and the row would be written once, with its response, after the method.
     */
    private static final String ONE_WRITE_TURN = """
            SELECT CASE WHEN pg_try_advisory_xact_lock(hashtextextended(?2, hashtext(?1))) THEN 'turn' ELSE 'wait' END
                || coalesce((SELECT ' ' || coalesce(CAST(response_status AS text) || ' '
                    || encode(request_fingerprint, 'base64') || ' '
                    || encode(convert_to(coalesce(response_headers, ''), 'UTF8'), 'base64') || ' '
                    || encode(response_body, 'base64'), '-')
                    FROM %1$s WHERE scope = ?1 AND message_id = ?2), '')""";

    /**
     * The one-write shape's second statement: the marker and its response in one INSERT, the values bound as texts as
     * the library binds {@link Sql#RECORD_RESPONSE}'s.
     */
    private static final String ONE_WRITE_INSERT = """
            INSERT INTO %1$s (scope, message_id, processed_at, request_fingerprint, response_status,
                              response_headers, response_body)
            VALUES (?1, ?2, now(), decode(?3, 'hex'), CAST(?4 AS smallint), ?5, decode(?6, 'base64'))
            ON CONFLICT (scope, message_id) DO NOTHING""";

    /** A layout: its name in the figures, and the DDL that gives a filled table its indexes and storage. */
    private enum Layout {
        TWO_BTREES("today's two B-trees", "CREATE INDEX %2$s_processed_at ON %1$s (processed_at)", 100),
        BRIN_32("BRIN on processed_at (pages_per_range 32) instead of the B-tree",
                "CREATE INDEX %2$s_processed_at ON %1$s USING brin (processed_at) WITH (pages_per_range = 32)", 100),
        BRIN_128("BRIN on processed_at (pages_per_range 128) instead of the B-tree",
                "CREATE INDEX %2$s_processed_at ON %1$s USING brin (processed_at) WITH (pages_per_range = 128)", 100),
        PRIMARY_KEY_ONLY("no second index (the primary key alone)", null, 100),
        TWO_BTREES_FILLFACTOR_90("today's two B-trees, fillfactor 90",
                "CREATE INDEX %2$s_processed_at ON %1$s (processed_at)", 90);

        private final String description;
        private final String secondIndex;
        private final int fillfactor;

        Layout(String description, String secondIndex, int fillfactor) {
            this.description = description;
            this.secondIndex = secondIndex;
            this.fillfactor = fillfactor;
        }

        String name(boolean http) {
            return "layout_" + name().toLowerCase(Locale.ROOT) + (http ? "_http" : "");
        }

        InboxTable table(boolean http) {
            return new InboxTable(SCHEMA, name(http));
        }
    }

    private final SecureRandom random = new SecureRandom();

    @Test
    void theLayoutsSideBySide() throws Exception {
        Results.prepare();
        try (Connection connection = TestDatabase.connect()) {
            prepare(connection);
            Map<Layout, List<Double>> writes = new EnumMap<>(Layout.class);
            Map<Layout, List<Long>> latencies = new EnumMap<>(Layout.class);
            Map<Layout, Long> wal = new EnumMap<>(Layout.class);
            Map<Layout, List<Double>> http = new EnumMap<>(Layout.class);
            Map<Layout, List<Double>> oneWrite = new EnumMap<>(Layout.class);
            Map<Layout, long[]> hot = new EnumMap<>(Layout.class);
            List<Double> invoiceAlone = new ArrayList<>();
            List<Double> httpFloor = new ArrayList<>();
            Layout[] layouts = Layout.values();
            // A warm-up round: the indexes' upper pages into the cache, the statements planned.
            for (Layout layout : layouts) {
                writeRound(connection, layout, new ArrayList<>(), new long[1]);
                httpRound(connection, layout.table(true));
                oneWriteRound(connection, layout.table(true));
            }
            invoiceRound(connection);
            httpFloorRound(connection);
            for (Layout layout : layouts) {
                hot.put(layout, updates(connection, layout.table(true)));
            }
            for (int round = 0; round < ROUNDS; round++) {
                invoiceAlone.add(invoiceRound(connection));
                httpFloor.add(httpFloorRound(connection));
                for (int k = 0; k < layouts.length; k++) {
                    Layout layout = layouts[(round + k) % layouts.length];
                    long[] walBytes = new long[1];
                    writes.computeIfAbsent(layout, any -> new ArrayList<>())
                            .add(writeRound(connection, layout, latencies.computeIfAbsent(layout,
                                    any -> new ArrayList<>()), walBytes));
                    wal.merge(layout, walBytes[0], Long::sum);
                    http.computeIfAbsent(layout, any -> new ArrayList<>()).add(httpRound(connection,
                            layout.table(true)));
                    oneWrite.computeIfAbsent(layout, any -> new ArrayList<>()).add(oneWriteRound(connection,
                            layout.table(true)));
                }
            }
            String runs = ROUNDS + " rounds of " + PER_ROUND + " transactions per arm, the layouts in turn; the ratio "
                    + "is the median of the rounds' ratios; " + LIVE + " live and " + EXPIRED + " expired markers";
            for (Layout layout : layouts) {
                List<Double> ratios = Results.roundRatios(invoiceAlone, writes.get(layout));
                long[] sorted = latencies.get(layout).stream().mapToLong(Long::longValue).toArray();
                Results.record("9", layout.description + ": the claim and the handler's row vs the handler's row "
                        + "alone, transactions/s", Results.format(Results.median(invoiceAlone), "tx/s"),
                        Results.format(Results.median(writes.get(layout)), "tx/s"), Results.median(ratios), "-",
                        runs + "; WAL " + Results.format(wal.get(layout) / (double) (ROUNDS * PER_ROUND), "B")
                                + " per transaction; p50 " + Results.format(Results.percentileMillis(sorted, 50), "ms")
                                + ", p99 " + Results.format(Results.percentileMillis(sorted, 99), "ms"));
            }
            for (Layout layout : layouts) {
                List<Double> ratios = Results.roundRatios(writes.get(Layout.TWO_BTREES), writes.get(layout));
                Results.record("9", layout.description + " vs today's, the claim and the handler's row, "
                        + "transactions/s", Results.format(Results.median(writes.get(Layout.TWO_BTREES)), "tx/s"),
                        Results.format(Results.median(writes.get(layout)), "tx/s"), Results.median(ratios), "-", runs);
            }
            for (Layout layout : layouts) {
                long[] before = hot.get(layout);
                long[] after = updates(connection, layout.table(true));
                long updated = after[0] - before[0];
                long hotUpdated = after[1] - before[1];
                List<Double> ratios = Results.roundRatios(httpFloor, http.get(layout));
                Results.record("9", layout.description + ": @Idempotent's claim and response UPDATE vs the whole row "
                        + "in one INSERT, transactions/s", Results.format(Results.median(httpFloor), "tx/s"),
                        Results.format(Results.median(http.get(layout)), "tx/s"), Results.median(ratios), "-",
                        runs + "; HOT share of the UPDATEs " + (updated == 0 ? "unknown (no statistics)"
                                : String.format(Locale.ROOT, "%.1f %%", 100.0 * hotUpdated / updated)
                                        + " (" + hotUpdated + " of " + updated + ")"));
            }
            for (Layout layout : layouts) {
                Results.record("9", layout.description + ": @Idempotent's one write (the key's turn taken and its "
                        + "stored response looked up, then the whole row in one INSERT) vs the whole row in one INSERT, "
                        + "transactions/s", Results.format(Results.median(httpFloor), "tx/s"),
                        Results.format(Results.median(oneWrite.get(layout)), "tx/s"),
                        Results.median(Results.roundRatios(httpFloor, oneWrite.get(layout))), "-", runs);
                Results.record("9", layout.description + ": @Idempotent's one write vs its claim and response UPDATE, "
                        + "transactions/s", Results.format(Results.median(http.get(layout)), "tx/s"),
                        Results.format(Results.median(oneWrite.get(layout)), "tx/s"),
                        Results.median(Results.roundRatios(http.get(layout), oneWrite.get(layout))), "-", runs);
            }
            for (Layout layout : layouts) {
                purge(connection, layout);
            }
        }
    }

    /** Creates the invoice table and fills one table per layout (and one per layout for the responses), alike. */
    private void prepare(Connection connection) throws SQLException {
        try (Statement statement = connection.createStatement()) {
            statement.execute("CREATE TABLE IF NOT EXISTS " + INVOICE + " (id bigserial PRIMARY KEY, consumer text "
                    + "NOT NULL, order_id text NOT NULL)");
            for (Layout layout : Layout.values()) {
                for (boolean http : new boolean[] {false, true}) {
                    String table = layout.table(http).quotedName();
                    statement.execute("DROP TABLE IF EXISTS " + table);
                    statement.execute("CREATE TABLE " + table + " (scope text NOT NULL, message_id text NOT NULL, "
                            + "processed_at timestamptz NOT NULL, request_fingerprint bytea, response_status "
                            + "smallint, response_headers text, response_body bytea) WITH (fillfactor = "
                            + layout.fillfactor + ", autovacuum_enabled = false)");
                    int live = http ? LIVE / 10 : LIVE;
                    int expired = http ? EXPIRED / 10 : EXPIRED;
                    // The expired markers first (the oldest rows lead the heap), then the live ones, each in time order.
                    statement.execute("INSERT INTO " + table + " (scope, message_id, processed_at) SELECT 'scope-' "
                            + "|| (i % 16), md5(i::text), now() - interval '60 days' + i * (interval '20 days' / "
                            + expired + ") FROM generate_series(1, " + expired + ") AS i");
                    statement.execute("INSERT INTO " + table + " (scope, message_id, processed_at) SELECT 'scope-' "
                            + "|| (i % 16), md5(i::text), now() - interval '7 days' + i * (interval '7 days' / "
                            + live + ") FROM generate_series(" + (expired + 1) + ", " + (expired + live) + ") AS i");
                    statement.execute("ALTER TABLE " + table + " ADD PRIMARY KEY (scope, message_id)");
                    if (layout.secondIndex != null) {
                        statement.execute(String.format(layout.secondIndex, table, layout.name(http)));
                    }
                    statement.execute("VACUUM ANALYZE " + table);
                }
            }
            statement.execute("CHECKPOINT");
        }
    }

    /** A round of transactions, each the claim and the invoice; returns transactions per second. */
    private double writeRound(Connection connection, Layout layout, List<Long> latencies, long[] walBytes)
            throws SQLException {
        String claim = Sql.forTable(Sql.CLAIM, layout.table(false));
        connection.setAutoCommit(false);
        long walBefore = wal(connection);
        long start = System.nanoTime();
        try (PreparedStatement invoice = connection.prepareStatement("INSERT INTO " + INVOICE
                + " (consumer, order_id) VALUES (?, ?)")) {
            for (int i = 0; i < PER_ROUND; i++) {
                long began = System.nanoTime();
                String id = UUID.randomUUID().toString();
                // A statement prepared per claim, as the library sends it on the transaction's connection.
                try (PreparedStatement claimStatement = prepare(connection, claim, "scope-" + (i % 16), id,
                        LOCK_TIMEOUT); ResultSet inserted = claimStatement.executeQuery()) {
                    if (!inserted.next()) {
                        throw new IllegalStateException("a new id was not claimed: " + id);
                    }
                }
                invoice.setString(1, layout.name());
                invoice.setString(2, id);
                invoice.executeUpdate();
                connection.commit();
                latencies.add(System.nanoTime() - began);
            }
        } finally {
            connection.setAutoCommit(true);
        }
        double seconds = (System.nanoTime() - start) / 1e9;
        walBytes[0] = wal(connection) - walBefore;
        return PER_ROUND / seconds;
    }

    /** A round of transactions each writing the invoice alone: the baseline. */
    private double invoiceRound(Connection connection) throws SQLException {
        connection.setAutoCommit(false);
        long start = System.nanoTime();
        try (PreparedStatement invoice = connection.prepareStatement("INSERT INTO " + INVOICE
                + " (consumer, order_id) VALUES (?, ?)")) {
            for (int i = 0; i < PER_ROUND; i++) {
                invoice.setString(1, "alone");
                invoice.setString(2, UUID.randomUUID().toString());
                invoice.executeUpdate();
                connection.commit();
            }
        } finally {
            connection.setAutoCommit(true);
        }
        return PER_ROUND / ((System.nanoTime() - start) / 1e9);
    }

    /** A round of {@code @Idempotent}'s shape: the claim, then the UPDATE with the response, in one transaction. */
    private double httpRound(Connection connection, InboxTable table) throws SQLException {
        String claim = Sql.forTable(Sql.CLAIM, table);
        connection.setAutoCommit(false);
        long start = System.nanoTime();
        try (PreparedStatement respond = connection.prepareStatement("UPDATE " + table.quotedName()
                + " SET request_fingerprint = ?, response_status = ?, response_headers = ?, "
                + "response_body = ? WHERE scope = ? AND message_id = ?")) {
            for (int i = 0; i < PER_ROUND; i++) {
                String id = UUID.randomUUID().toString();
                try (PreparedStatement claimStatement = prepare(connection, claim, "http", id, LOCK_TIMEOUT)) {
                    claimStatement.executeQuery().close();
                }
                respond.setBytes(1, bytes(32));
                respond.setShort(2, (short) 201);
                respond.setString(3, "Content-Type: application/json\nLocation: /orders/" + id);
                respond.setBytes(4, bytes(400));
                respond.setString(5, "http");
                respond.setString(6, id);
                respond.executeUpdate();
                connection.commit();
            }
        } finally {
            connection.setAutoCommit(true);
        }
        return PER_ROUND / ((System.nanoTime() - start) / 1e9);
    }

    /**
     * A round of the one-write shape that {@code @Idempotent} could take instead of its claim and UPDATE: the key's turn
     * and what is stored under it ({@link #ONE_WRITE_TURN}), then the marker and its response in one INSERT
     * ({@link #ONE_WRITE_INSERT}), in one transaction, each statement prepared per call as the library prepares its own.
     */
    private double oneWriteRound(Connection connection, InboxTable table) throws SQLException {
        String turn = Sql.forTable(ONE_WRITE_TURN, table);
        String record = Sql.forTable(ONE_WRITE_INSERT, table);
        java.util.HexFormat hex = java.util.HexFormat.of();
        java.util.Base64.Encoder base64 = java.util.Base64.getEncoder();
        connection.setAutoCommit(false);
        long start = System.nanoTime();
        try {
            for (int i = 0; i < PER_ROUND; i++) {
                String id = UUID.randomUUID().toString();
                try (PreparedStatement turnStatement = prepare(connection, turn, "one-write", id);
                        ResultSet row = turnStatement.executeQuery()) {
                    if (!row.next() || !"turn".equals(row.getString(1))) {
                        throw new IllegalStateException("a new key's turn was not taken: " + id);
                    }
                }
                try (PreparedStatement insert = prepare(connection, record, "one-write", id, hex.formatHex(bytes(32)),
                        "201", "Content-Type: application/json\nLocation: /orders/" + id,
                        base64.encodeToString(bytes(400)))) {
                    if (insert.executeUpdate() != 1) {
                        throw new IllegalStateException("a new key's row was not inserted: " + id);
                    }
                }
                connection.commit();
            }
        } finally {
            connection.setAutoCommit(true);
        }
        return PER_ROUND / ((System.nanoTime() - start) / 1e9);
    }

    /** The floor of {@code @Idempotent}'s shape: the marker and its response in one INSERT, into today's layout. */
    private double httpFloorRound(Connection connection) throws SQLException {
        connection.setAutoCommit(false);
        long start = System.nanoTime();
        try (PreparedStatement insert = connection.prepareStatement("INSERT INTO "
                + Layout.TWO_BTREES.table(true).quotedName() + " (scope, message_id, processed_at, "
                + "request_fingerprint, response_status, response_headers, response_body) "
                + "VALUES (?, ?, now(), ?, ?, ?, ?) ON CONFLICT (scope, message_id) DO NOTHING")) {
            for (int i = 0; i < PER_ROUND; i++) {
                String id = UUID.randomUUID().toString();
                insert.setString(1, "http-floor");
                insert.setString(2, id);
                insert.setBytes(3, bytes(32));
                insert.setShort(4, (short) 201);
                insert.setString(5, "Content-Type: application/json\nLocation: /orders/" + id);
                insert.setBytes(6, bytes(400));
                insert.executeUpdate();
                connection.commit();
            }
        } finally {
            connection.setAutoCommit(true);
        }
        return PER_ROUND / ((System.nanoTime() - start) / 1e9);
    }

    /**
     * Purges the layout's expired markers with the library's statement, a batch per transaction, the lower bound
     * moved to the newest marker deleted (as the library's cleanup does), for at most {@value #PURGE_SECONDS} s.
     */
    private void purge(Connection connection, Layout layout) throws SQLException {
        InboxTable table = layout.table(false);
        String delete = Sql.forTable(Sql.DELETE_EXPIRED_BATCH, table);
        Instant cutoff = Instant.now().minus(Duration.ofDays(30));
        Instant from = InboxLimits.EARLIEST;
        long deleted = 0;
        int batches = 0;
        long start = System.nanoTime();
        long deadline = start + Duration.ofSeconds(PURGE_SECONDS).toNanos();
        connection.setAutoCommit(false);
        try {
            while (System.nanoTime() < deadline) {
                String result;
                try (PreparedStatement batch = prepare(connection, delete, from.toString(), cutoff.toString(),
                        PURGE_BATCH); ResultSet row = batch.executeQuery()) {
                    row.next();
                    result = row.getString(1);
                }
                connection.commit();
                batches++;
                int slash = result.indexOf('/');
                int count = Integer.parseInt(result.substring(0, slash));
                deleted += count;
                if (count < PURGE_BATCH) {
                    break;
                }
                from = Instant.EPOCH.plus(Long.parseLong(result.substring(slash + 1)),
                        java.time.temporal.ChronoUnit.MICROS);
            }
        } finally {
            connection.setAutoCommit(true);
        }
        double seconds = (System.nanoTime() - start) / 1e9;
        Results.record("9", layout.description + ": the purge, batch " + PURGE_BATCH + ", rows/s", "-",
                Results.format(deleted / seconds, "rows/s"), null, "-", deleted + " of " + EXPIRED
                        + " expired markers deleted in " + batches + " batches, " + Results.format(seconds, "s")
                        + (deleted < EXPIRED ? " (stopped at " + PURGE_SECONDS + " s)" : ""));
    }

    /** The table's updates so far, and how many of them were HOT, from the statistics (flushed first). */
    private static long[] updates(Connection connection, InboxTable table) throws SQLException {
        try {
            Thread.sleep(1_000); // PostgreSQL 14's statistics reach the views half a second after the transaction
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        try (PreparedStatement statement = connection.prepareStatement("SELECT n_tup_upd, n_tup_hot_upd FROM "
                + "pg_stat_user_tables WHERE schemaname = ? AND relname = ?")) {
            statement.setString(1, SCHEMA);
            statement.setString(2, table.name());
            try (ResultSet row = statement.executeQuery()) {
                return row.next() ? new long[] {row.getLong(1), row.getLong(2)} : new long[] {0, 0};
            }
        }
    }

    private static long wal(Connection connection) throws SQLException {
        try (Statement statement = connection.createStatement();
                ResultSet row = statement.executeQuery("SELECT pg_current_wal_lsn() - '0/0'")) {
            row.next();
            return row.getLong(1);
        }
    }

    /**
     * Prepares one of the library's statements, its numbered parameters ({@code ?1}, each perhaps used more than once)
     * bound to the values by number.
     */
    private static PreparedStatement prepare(Connection connection, String sql, Object... values)
            throws SQLException {
        Matcher parameter = NUMBERED.matcher(sql);
        List<Integer> order = new ArrayList<>();
        while (parameter.find()) {
            order.add(Integer.parseInt(parameter.group(1)));
        }
        PreparedStatement statement = connection.prepareStatement(NUMBERED.matcher(sql).replaceAll("?"));
        for (int i = 0; i < order.size(); i++) {
            statement.setObject(i + 1, values[order.get(i) - 1]);
        }
        return statement;
    }

    private byte[] bytes(int length) {
        byte[] bytes = new byte[length];
        random.nextBytes(bytes);
        return bytes;
    }
}
