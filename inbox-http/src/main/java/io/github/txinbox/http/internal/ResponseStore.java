package io.github.txinbox.http.internal;

import io.github.txinbox.InboxLimits;
import io.github.txinbox.InboxRepository;
import io.github.txinbox.InboxSettings;
import io.github.txinbox.InboxTable;
import io.github.txinbox.InboxTableException;
import io.github.txinbox.NoActiveTransactionException;
import io.github.txinbox.http.ResponseSchema;
import jakarta.annotation.PostConstruct;
import jakarta.enterprise.context.Dependent;
import jakarta.inject.Inject;
import jakarta.inject.Named;
import jakarta.persistence.EntityManager;
import jakarta.persistence.FlushModeType;
import jakarta.persistence.PersistenceContext;
import jakarta.persistence.Query;
import jakarta.transaction.Status;
import jakarta.transaction.TransactionSynchronizationRegistry;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Stores a first request's response in its marker's row, beside the core's columns, and reads it back for a retry;
 * the one owner of the response's format in the table ({@link ResponseSchema} has its columns' DDL). Its statements
 * run in the caller's transaction, through the persistence context the core's {@link InboxRepository} uses, on the
 * table it writes to. Like the repository, it never begins, commits or rolls back.
 */
@Dependent
public class ResponseStore {

    /**
     * Stores a response in the marker of ?1 (scope) and ?2 (message id), which the transaction claimed: ?3 the
     * request's fingerprint in hex, ?4 the status, ?5 the headers' lines, ?6 the body in base64. Texts and a number,
     * which every provider binds alike. Returns the count of rows updated, through {@code executeUpdate}.
     */
    static final String RECORD_RESPONSE = """
            UPDATE %1$s
            SET request_fingerprint = decode(?3, 'hex'), response_status = CAST(?4 AS smallint),
                response_headers = ?5, response_body = decode(?6, 'base64')
            WHERE scope = ?1 AND message_id = ?2""";

    /**
     * The response stored in the marker of ?1 (scope) and ?2 (message id), as one text value, which every provider
     * reads alike: the status, then the fingerprint, the headers' lines (as UTF-8) and the body, each in base64 (with
     * the line breaks PostgreSQL puts in it), separated by spaces; {@code NULL} when the marker holds no response, and
     * no row when there is no marker.
     */
    static final String RECORDED_RESPONSE = """
            SELECT CAST(response_status AS text) || ' ' || encode(request_fingerprint, 'base64') || ' '
                || encode(convert_to(coalesce(response_headers, ''), 'UTF8'), 'base64') || ' '
                || encode(response_body, 'base64')
            FROM %1$s
            WHERE scope = ?1 AND message_id = ?2""";

    /**
     * The columns of the table named by ?1 (its quoted, qualified name), as {@code name type [NOT NULL]} separated by
     * {@code ;}; {@code NULL} when no such table exists.
     */
    static final String DESCRIBE_COLUMNS = """
            SELECT CASE WHEN t.oid IS NULL THEN NULL ELSE
                coalesce((SELECT string_agg(a.attname || ' ' || format_type(a.atttypid, a.atttypmod)
                                 || CASE WHEN a.attnotnull THEN ' NOT NULL' ELSE '' END, ';' ORDER BY a.attnum)
                          FROM pg_attribute a
                          WHERE a.attrelid = t.oid AND a.attnum > 0 AND NOT a.attisdropped), '')
            END
            FROM (SELECT CAST(to_regclass(?1) AS oid) AS oid) t""";

    /** The columns a response is stored in, with their types; all nullable. */
    private static final Map<String, String> COLUMNS = new LinkedHashMap<>();

    static {
        COLUMNS.put("request_fingerprint", "bytea");
        COLUMNS.put("response_status", "smallint");
        COLUMNS.put("response_headers", "text");
        COLUMNS.put("response_body", "bytea");
    }

    /** Hibernate's hint naming the tables a native query touches (see {@link InboxRepository}). */
    private static final String HIBERNATE_NATIVE_SPACES = "org.hibernate.query.native.spaces";

    @PersistenceContext(name = InboxRepository.PERSISTENCE_CONTEXT_NAME)
    private EntityManager entityManager;

    /** The registry the core's extension found at deployment, under the name the repository injects it by. */
    @Inject
    @Named("io.github.txinbox.transactions")
    private TransactionSynchronizationRegistry transactions;

    @Inject
    private InboxSettings settings = InboxSettings.DEFAULTS;

    private InboxTable table;
    private String record;
    private String recorded;

    /** For the container, and for the tests' stores. */
    protected ResponseStore() {
    }

    @PostConstruct
    void init() {
        table = settings.table();
        record = RECORD_RESPONSE.formatted(table.quotedName());
        recorded = RECORDED_RESPONSE.formatted(table.quotedName());
    }

    /**
     * Stores a response in a marker that the current transaction claimed. It commits or rolls back with the marker.
     *
     * @param scope     the marker's scope, as claimed
     * @param messageId the marker's id, as claimed
     * @param response  the response
     * @throws IllegalArgumentException     when the scope or id is not valid, or the response is null
     * @throws IllegalStateException        when there is no such marker to store it in: claim it first
     * @throws NoActiveTransactionException when no JTA transaction is active
     * @throws jakarta.persistence.PersistenceException when the database fails the statement, for example because
     *                                      the table lacks the response columns ({@link ResponseSchema})
     */
    public void record(String scope, String messageId, RecordedResponse response) {
        InboxLimits.requireKey("scope", scope, settings.maxScopeBytes());
        InboxLimits.requireKey("messageId", messageId, settings.maxMessageIdBytes());
        if (response == null) {
            throw new IllegalArgumentException("response must not be null");
        }
        requireActiveTransaction("ResponseStore.record");
        int updated = nativeQuery(record)
                .setParameter(1, scope)
                .setParameter(2, messageId)
                .setParameter(3, HexFormat.of().formatHex(response.requestFingerprint()))
                .setParameter(4, Integer.toString(response.status()))
                .setParameter(5, response.headerLines())
                .setParameter(6, Base64.getEncoder().encodeToString(response.body()))
                .executeUpdate();
        if (updated != 1) {
            throw new IllegalStateException("No marker of " + messageId + " in scope " + scope + " to store a "
                    + "response in (" + updated + " rows): claim it in this transaction first");
        }
    }

    /**
     * Returns the response stored in a marker, as the transaction sees it.
     *
     * @param scope     the marker's scope
     * @param messageId the marker's id
     * @return the response; empty when there is no marker, or it holds no response
     * @throws IllegalArgumentException     when the scope or id is not valid
     * @throws NoActiveTransactionException when no JTA transaction is active
     */
    public Optional<RecordedResponse> recorded(String scope, String messageId) {
        InboxLimits.requireKey("scope", scope, settings.maxScopeBytes());
        InboxLimits.requireKey("messageId", messageId, settings.maxMessageIdBytes());
        requireActiveTransaction("ResponseStore.recorded");
        List<?> rows = nativeQuery(recorded)
                .setParameter(1, scope)
                .setParameter(2, messageId)
                .getResultList();
        if (rows.isEmpty() || rows.get(0) == null) {
            return Optional.empty();
        }
        String[] parts = ((String) rows.get(0)).split(" ", -1);
        Base64.Decoder base64 = Base64.getMimeDecoder();
        return Optional.of(new RecordedResponse(base64.decode(parts[1]), Integer.parseInt(parts[0]),
                RecordedResponse.parseHeaderLines(new String(base64.decode(parts[2]), StandardCharsets.UTF_8)),
                base64.decode(parts[3])));
    }

    /**
     * Checks that the table has the columns a response is stored in: {@code request_fingerprint} and
     * {@code response_body} ({@code bytea}), {@code response_status} ({@code smallint}) and {@code response_headers}
     * ({@code text}), all nullable.
     *
     * @throws InboxTableException          when the table is missing or a column is missing or differs, naming the
     *                                      table, what differs and the DDL that adds the columns
     * @throws NoActiveTransactionException when no JTA transaction is active
     */
    public void verifyColumns() {
        requireActiveTransaction("ResponseStore.verifyColumns");
        Object description = nativeQuery(DESCRIBE_COLUMNS).setParameter(1, table.quotedName()).getSingleResult();
        List<String> problems = problems((String) description);
        if (!problems.isEmpty()) {
            throw new InboxTableException("The inbox table " + table.quotedName() + " will not do for @Idempotent: "
                    + String.join("; ", problems), ResponseSchema.addResponseColumnsSql(table));
        }
    }

    /**
     * Lists what is wrong with the response columns of a table's description ({@link #DESCRIBE_COLUMNS}): each must
     * exist, with its type, and allow null (a message's marker leaves it empty).
     *
     * @param description the description, or {@code null} when the table does not exist
     * @return the problems, in words; empty when the columns will do
     */
    static List<String> problems(String description) {
        if (description == null) {
            return List.of("it does not exist");
        }
        Map<String, String> actual = new LinkedHashMap<>();
        for (String column : description.split(";")) {
            int space = column.indexOf(' ');
            if (space > 0) {
                actual.put(column.substring(0, space), column.substring(space + 1));
            }
        }
        List<String> problems = new ArrayList<>();
        COLUMNS.forEach((name, expected) -> {
            String found = actual.get(name);
            if (found == null) {
                problems.add("it has no column " + name + " (" + expected + "), where @Idempotent stores responses");
            } else if (!found.equals(expected)) {
                problems.add("its column " + name + " is " + found + ", not " + expected + " (nullable)");
            }
        });
        return problems;
    }

    private Query nativeQuery(String sql) {
        Query query = entityManager.createNativeQuery(sql);
        // Nothing the application maps lives in the inbox table: no flush of its pending changes is needed first.
        query.setFlushMode(FlushModeType.COMMIT);
        query.setHint(HIBERNATE_NATIVE_SPACES, table.qualifiedName());
        return query;
    }

    private void requireActiveTransaction(String operation) {
        if (transactions == null || entityManager == null) {
            throw new IllegalStateException(operation + " cannot run: the container injected no "
                    + (entityManager == null ? "EntityManager" : "TransactionSynchronizationRegistry") + " into this "
                    + "ResponseStore, so it was created outside a component's environment. Inject it into a bean of "
                    + "a web or EJB module");
        }
        int status = transactions.getTransactionStatus();
        if (status != Status.STATUS_ACTIVE) {
            throw new NoActiveTransactionException(operation, status);
        }
    }
}
