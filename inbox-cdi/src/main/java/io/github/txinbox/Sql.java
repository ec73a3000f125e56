package io.github.txinbox;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Every SQL statement txinbox issues, for PostgreSQL 14 or newer. {@code %1$s} stands for the quoted,
 * schema-qualified table name and {@code %2$s} for the quoted index name; both come from a validated
 * {@link InboxTable}, never from raw input.
 *
 * <p>Instants cross the wire as plain values every JPA provider binds and reads alike, unlike {@code timestamptz},
 * whose Java type differs between providers: out as microseconds since the epoch in a {@code bigint}, in as an
 * ISO-8601 text in UTC. Both are exact at PostgreSQL's microsecond precision.
 */
final class Sql {

    private Sql() {
    }

    /** Creates the table and its index; also shipped as the migration resource {@link InboxSchema#MIGRATION_RESOURCE}. */
    static final String CREATE_TABLE = """
            CREATE TABLE IF NOT EXISTS %1$s (
                scope        text COLLATE "C" NOT NULL,
                message_id   text COLLATE "C" NOT NULL,
                processed_at timestamptz      NOT NULL DEFAULT now(),
                PRIMARY KEY (scope, message_id)
            );
            CREATE INDEX IF NOT EXISTS %2$s ON %1$s (processed_at);
            """;

    /**
     * Inserts the marker unless one exists, waiting at most ?3 (a {@code lock_timeout} value such as {@code 10000ms})
     * for a concurrent transaction that holds it. Returns one row when this transaction claimed the key, none when a
     * committed marker exists; the row holds the {@code lock_timeout} in effect again, as text, which every provider
     * reads alike.
     *
     * <p>A concurrent, uncommitted (or prepared) insert of the same key makes PostgreSQL wait for that transaction: its
     * commit yields no row, its rollback lets this insert go ahead. No unique violation is raised, so the caller's
     * transaction stays usable. The wait is bounded by setting {@code lock_timeout} for this statement alone: the
     * innermost subquery saves the transaction's value in {@code txinbox.lock_timeout}, the next sets the bound, and
     * both run before the insert reads its one row (a subquery with a volatile function is not flattened into its
     * parent). An inserted row puts the saved value back in its {@code RETURNING}, evaluated once the insert is done;
     * without a row (the marker exists) nothing is evaluated after the insert, so the claim then sends
     * {@link #RESTORE_LOCK_TIMEOUT}. Set with {@code is_local}, both end with the transaction whatever happens. Past
     * the bound PostgreSQL fails the statement with SQLSTATE 55P03 ({@code lock_not_available}).
     *
     * <p>A plain {@code INSERT} with {@code RETURNING} rather than one wrapped in a {@code WITH} whose outer
     * {@code SELECT} puts the value back in every case: that wrapping (the insert's rows kept in a tuple store, then
     * aggregated) costs as much again as the bound's functions, on every claim, to spare the rare duplicate a second
     * statement.
     */
    static final String CLAIM = """
            INSERT INTO %1$s (scope, message_id, processed_at)
            SELECT ?1, ?2, now()
            FROM (SELECT set_config('lock_timeout', ?3, true)
                  FROM (SELECT set_config('txinbox.lock_timeout', current_setting('lock_timeout'), true)) AS saved
                 ) AS bounded
            ON CONFLICT (scope, message_id) DO NOTHING
            RETURNING set_config('lock_timeout', current_setting('txinbox.lock_timeout'), true)""";

    /**
     * Inserts the markers of ?1 (scope) and every id of ?2, a JSON array of texts ({@link #textArray}), unless they
     * exist, in the array's order, waiting at most ?3 (a {@code lock_timeout} value) for a concurrent transaction
     * that holds one. Returns one text value: the 1-based positions in the array of the ids this transaction inserted,
     * in order, separated by {@code ,} (empty when none), then {@code /}, then the {@code lock_timeout} in effect
     * again.
     *
     * <p>The bound is set as in {@link #CLAIM}, but put back once the whole insert is done: {@code RETURNING} is
     * evaluated row by row, so restoring it there would leave the rows after the first unbounded. The outer
     * {@code SELECT} aggregates, and an aggregate's result, with the {@code set_config} in it, is computed after its
     * last input row, which the insert yields only once it has inserted them all; with no row it still yields its
     * one result. The ids arrive in one order for every caller ({@link InboxRepository#claimAll} sorts them), so two
     * batches that share ids wait for each other instead of deadlocking. The join takes the positions back: an
     * inserted row returns only its columns.
     */
    static final String CLAIM_ALL = """
            WITH given AS (
                SELECT id, position
                FROM jsonb_array_elements_text(CAST(?2 AS jsonb)) WITH ORDINALITY AS ids(id, position)
            ), claimed AS (
                INSERT INTO %1$s (scope, message_id, processed_at)
                SELECT ?1, given.id, now()
                FROM (SELECT set_config('lock_timeout', ?3, true)
                      FROM (SELECT set_config('txinbox.lock_timeout', current_setting('lock_timeout'), true)) AS saved
                     ) AS bounded, given
                ORDER BY given.position
                ON CONFLICT (scope, message_id) DO NOTHING
                RETURNING message_id)
            SELECT coalesce(string_agg(CAST(given.position AS text), ',' ORDER BY given.position), '') || '/'
                || set_config('lock_timeout', current_setting('txinbox.lock_timeout'), true)
            FROM claimed JOIN given ON given.id COLLATE "C" = claimed.message_id""";

    /**
     * Puts back the {@code lock_timeout} that {@link #CLAIM} saved, after a claim that inserted no row; returns it as
     * text.
     */
    static final String RESTORE_LOCK_TIMEOUT = """
            SELECT set_config('lock_timeout', current_setting('txinbox.lock_timeout'), true)""";

    /** The transaction's start time on the database clock ({@code now()}), in microseconds since the epoch. */
    static final String NOW_MICROS = """
            SELECT CAST(extract(epoch FROM now()) * 1000000 AS bigint)""";

    /**
     * The first key of the advisory lock that {@link #PURGE_TURN} takes, the letters {@code txib} as a number; the
     * second key is the table's OID. {@code pg_locks} shows it as {@code classid}.
     */
    static final int PURGE_LOCK_CLASS = 0x74786962;

    /**
     * Waits for the purge's turn on the table named by ?1 (its quoted, qualified name): a transaction-scoped advisory
     * lock on ({@link #PURGE_LOCK_CLASS}, the table's OID), held until the transaction ends, so that purges on several
     * nodes run their batches one after another instead of taking row locks to share them. The wait is bounded by
     * ?2, a {@code lock_timeout} value: the innermost subquery saves the transaction's value in
     * {@code txinbox.lock_timeout}, the next sets the bound, and both run before the lock is taken (a subquery with a
     * volatile function is not flattened into its parent), and the outer select reads the bound once the lock is
     * held. Past the bound PostgreSQL fails the statement with SQLSTATE 55P03. The bound stays in force for the
     * batch's {@link #DELETE_EXPIRED_BATCH}, which may wait for a row that another transaction locked;
     * {@link #RESTORE_LOCK_TIMEOUT} puts the saved value back after it. Set with {@code is_local}, both end with the
     * transaction whatever happens. Returns the bound, as text.
     *
     * <p>A statement of its own, before {@link #DELETE_EXPIRED_BATCH}: under READ COMMITTED each statement reads a
     * snapshot taken when it starts, so the delete, which starts once the turn is held, sees every row the previous
     * batch deleted. Taking the lock inside the delete would leave it a snapshot from before that batch's commit: it
     * would pick rows already gone and delete fewer than its limit, which ends a purge early.
     */
    static final String PURGE_TURN = """
            SELECT current_setting('lock_timeout')
            FROM (SELECT pg_advisory_xact_lock(%d, CAST(CAST(CAST(?1 AS regclass) AS oid) AS integer))
                  FROM (SELECT set_config('lock_timeout', ?2, true)
                        FROM (SELECT set_config('txinbox.lock_timeout', current_setting('lock_timeout'), true)) AS saved
                       ) AS bounded
                 ) AS turn""".formatted(PURGE_LOCK_CLASS);

    /**
     * Deletes at most ?3 markers with {@code processed_at} from ?1 (inclusive) to ?2 (exclusive), both ISO-8601 texts
     * in UTC, after {@link #PURGE_TURN} in the same transaction, whose bound limits the delete's wait for a row that
     * another transaction locked (a delete has no {@code SKIP LOCKED}). It takes no row lock beyond the delete's own:
     * the inner select and the outer delete read one snapshot, in which the picked rows are live, so VACUUM cannot
     * free their ctids in between, and a row updated in between fails the delete's recheck of its ctid instead of letting
     * another row go. {@code = ANY (ARRAY(...))} lets the planner fetch them by TID. The outer delete repeats the
     * range because a ctid is unique only within one table: on a partitioned table, a picked ctid also names rows of
     * the other partitions, and only the expired ones among them may go. Oldest first, along the
     * {@code processed_at} index, so that a batch reads only the rows it deletes; the lower bound lets the next batch
     * start its index scan where this one stopped, instead of stepping again over the index entries of the rows
     * already deleted, which stay in the index until VACUUM. Returns one text value, which every provider reads
     * alike: the count, {@code /}, and the newest {@code processed_at} deleted in microseconds since the epoch (empty
     * when none).
     */
    static final String DELETE_EXPIRED_BATCH = """
            WITH deleted AS (
                DELETE FROM %1$s
                WHERE ctid = ANY (ARRAY(
                    SELECT ctid FROM %1$s
                    WHERE processed_at >= CAST(?1 AS timestamptz) AND processed_at < CAST(?2 AS timestamptz)
                    ORDER BY processed_at
                    LIMIT ?3))
                AND processed_at >= CAST(?1 AS timestamptz) AND processed_at < CAST(?2 AS timestamptz)
                RETURNING processed_at)
            SELECT count(*) || '/'
                || coalesce(CAST(CAST(extract(epoch FROM max(processed_at)) * 1000000 AS bigint) AS text), '')
            FROM deleted""";

    /**
     * The transactions prepared in this database for at least ?1 microseconds (on the database clock), oldest first,
     * one text value each, which every provider reads alike: when it was prepared in microseconds since the epoch, a
     * space, the length of its owner's name, a space, the owner's name and the gid, which may hold any character.
     */
    static final String PREPARED_TRANSACTIONS = """
            SELECT CAST(CAST(extract(epoch FROM prepared) * 1000000 AS bigint) AS text) || ' '
                || length(CAST(owner AS text)) || ' ' || CAST(owner AS text) || gid
            FROM pg_prepared_xacts
            WHERE database = current_database()
                AND prepared <= now() - CAST(?1 AS bigint) * interval '1 microsecond'
            ORDER BY prepared""";

    /**
     * Describes the table named by ?1 (its quoted, qualified name, resolved like any name in a statement): its
     * columns as {@code name type [COLLATE "collation"] [NOT NULL]} separated by {@code ;}, then {@code |}, then its
     * primary key's columns separated by {@code ,}, then {@code |}, then the database's own collation, which a column
     * under {@code COLLATE "default"} compares by: its provider ({@code c} libc, {@code i} ICU, {@code b} builtin), a
     * space and its locale; {@code NULL} when no such table exists. One text value, which every provider reads alike.
     *
     * <p>The database's collation is read from its {@code pg_database} row as JSON, so that one statement runs on every
     * version: PostgreSQL 14 has only {@code datcollate} (libc), 15 and 16 add {@code datlocprovider} and
     * {@code daticulocale}, 17 renames the latter {@code datlocale} and adds the builtin provider.
     */
    static final String DESCRIBE_TABLE = """
            SELECT CASE WHEN t.oid IS NULL THEN NULL ELSE
                coalesce((SELECT string_agg(a.attname || ' ' || format_type(a.atttypid, a.atttypmod)
                                 || coalesce(' COLLATE ' || quote_ident(c.collname), '')
                                 || CASE WHEN a.attnotnull THEN ' NOT NULL' ELSE '' END, ';' ORDER BY a.attnum)
                          FROM pg_attribute a
                          LEFT JOIN pg_collation c ON c.oid = a.attcollation
                          WHERE a.attrelid = t.oid AND a.attnum > 0 AND NOT a.attisdropped), '')
                || '|' ||
                coalesce((SELECT string_agg(a.attname, ',' ORDER BY k.ord)
                          FROM pg_index i
                          CROSS JOIN LATERAL unnest(i.indkey) WITH ORDINALITY AS k(attnum, ord)
                          JOIN pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = k.attnum
                          WHERE i.indrelid = t.oid AND i.indisprimary), '')
                || '|' ||
                (SELECT coalesce(d ->> 'datlocprovider', 'c') || ' '
                        || CASE coalesce(d ->> 'datlocprovider', 'c') WHEN 'c' THEN d ->> 'datcollate'
                           ELSE coalesce(d ->> 'datlocale', d ->> 'daticulocale', '') END
                 FROM (SELECT to_jsonb(db) AS d FROM pg_database db WHERE db.datname = current_database()) this)
            END
            FROM (SELECT CAST(to_regclass(?1) AS oid) AS oid) t""";

    /**
     * The texts as a JSON array, which {@link #CLAIM_ALL} reads with {@code jsonb_array_elements_text}: one text
     * parameter, which every provider binds alike, unlike a SQL array. Quotes, backslashes and control characters are
     * escaped; everything else is sent as it is. The texts hold no NUL character ({@link InboxLimits#requireKey}),
     * which {@code jsonb} refuses even escaped.
     */
    static String textArray(List<String> texts) {
        StringBuilder json = new StringBuilder(texts.size() * 40 + 2).append('[');
        for (int i = 0; i < texts.size(); i++) {
            if (i > 0) {
                json.append(',');
            }
            json.append('"');
            String text = texts.get(i);
            for (int j = 0; j < text.length(); j++) {
                char c = text.charAt(j);
                if (c == '"' || c == '\\') {
                    json.append('\\').append(c);
                } else if (c < 0x20) {
                    json.append(String.format("\\u%04x", (int) c));
                } else {
                    json.append(c);
                }
            }
            json.append('"');
        }
        return json.append(']').toString();
    }

    static String forTable(String template, InboxTable table) {
        return template.formatted(table.quotedName(), InboxTable.quote(table.processedAtIndexName()));
    }

    /**
     * The statements that name the table, formatted for one table once and shared by every repository of it: a
     * repository is {@code @Dependent}, created for each {@code @Inbox} bean instance and, for a request-scoped
     * resource with inbox-http's {@code @Idempotent}, for each request.
     *
     * @param claim              {@link #CLAIM}
     * @param claimJdbc          {@link #CLAIM} as JDBC takes it
     * @param claimAll           {@link #CLAIM_ALL}
     * @param claimAllJdbc       {@link #CLAIM_ALL} as JDBC takes it
     * @param deleteExpiredBatch {@link #DELETE_EXPIRED_BATCH}
     */
    record Statements(String claim, Jdbc claimJdbc, String claimAll, Jdbc claimAllJdbc, String deleteExpiredBatch) {

        private static final Map<InboxTable, Statements> TABLES = new ConcurrentHashMap<>();

        /**
         * Returns the statements of a table, formatted at the first call for it.
         *
         * @param table the table
         * @return its statements
         */
        static Statements of(InboxTable table) {
            return TABLES.computeIfAbsent(table, Statements::format);
        }

        private static Statements format(InboxTable table) {
            String claim = forTable(CLAIM, table);
            String claimAll = forTable(CLAIM_ALL, table);
            return new Statements(claim, Jdbc.of(claim), claimAll, Jdbc.of(claimAll),
                    forTable(DELETE_EXPIRED_BATCH, table));
        }
    }

    /**
     * A statement of this class as JDBC takes it, for the claims sent on the provider's own connection
     * ({@link ProviderConnection}): each numbered parameter ({@code ?1}) turned into JDBC's {@code ?}, and the number
     * each {@code ?} stands for, in the order they appear; a statement may name a parameter before a lower one, or
     * twice.
     */
    static final class Jdbc {

        private static final Pattern PARAMETER = Pattern.compile("\\?(\\d*)");

        /** Each statement's form, made once: a repository is created for every {@code @Inbox} bean instance. */
        private static final Map<String, Jdbc> FORMS = new ConcurrentHashMap<>();

        private final String text;
        private final int[] parameters;
        private final int count;

        private Jdbc(String text, int[] parameters, int count) {
            this.text = text;
            this.parameters = parameters;
            this.count = count;
        }

        /**
         * Turns a statement with numbered parameters into its JDBC form.
         *
         * @param statement the statement, as the native queries send it
         * @return its JDBC form
         * @throws IllegalArgumentException when a {@code ?} has no number, or a number from 1 to the highest is missing
         */
        static Jdbc of(String statement) {
            return FORMS.computeIfAbsent(statement, Jdbc::parse);
        }

        private static Jdbc parse(String statement) {
            Matcher parameter = PARAMETER.matcher(statement);
            StringBuilder text = new StringBuilder(statement.length());
            List<Integer> order = new ArrayList<>();
            while (parameter.find()) {
                if (parameter.group(1).isEmpty()) {
                    throw new IllegalArgumentException("a ? without a number at " + parameter.start() + ":\n"
                            + statement);
                }
                order.add(Integer.valueOf(parameter.group(1)));
                parameter.appendReplacement(text, "?");
            }
            parameter.appendTail(text);
            int count = order.stream().mapToInt(Integer::intValue).max().orElse(0);
            for (int number = 1; number <= count; number++) {
                if (!order.contains(number)) {
                    throw new IllegalArgumentException("?" + number + " is missing, though ?" + count + " is named:\n"
                            + statement);
                }
            }
            return new Jdbc(text.toString(), order.stream().mapToInt(Integer::intValue).toArray(), count);
        }

        /** The statement with JDBC's {@code ?}. */
        String text() {
            return text;
        }

        /**
         * Prepares the statement on a connection and binds its parameters, all texts.
         *
         * @param connection the connection
         * @param values     the value of ?1, ?2, and so on
         * @return the statement, ready to run; the caller closes it
         * @throws SQLException when the driver refuses it
         */
        PreparedStatement prepare(Connection connection, String... values) throws SQLException {
            if (values.length != count) {
                throw new IllegalArgumentException(count + " parameters, but " + values.length + " values");
            }
            PreparedStatement statement = connection.prepareStatement(text);
            try {
                for (int i = 0; i < parameters.length; i++) {
                    statement.setString(i + 1, values[parameters[i] - 1]);
                }
            } catch (SQLException | RuntimeException e) {
                statement.close();
                throw e;
            }
            return statement;
        }
    }
}
