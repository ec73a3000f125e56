package io.github.txinbox.http.internal;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.github.txinbox.InboxConflictException;
import io.github.txinbox.InboxEvent;
import io.github.txinbox.InboxMarkerHeldException;
import io.github.txinbox.InboxOutcome;
import io.github.txinbox.InboxRepository;
import io.github.txinbox.InboxSettings;
import io.github.txinbox.http.Idempotent;
import io.github.txinbox.http.IdempotentSettings;
import io.github.txinbox.internal.fakes.FiredEvents;
import io.github.txinbox.internal.fakes.TestInvocation;
import io.github.txinbox.internal.fakes.TestTransaction;
import jakarta.persistence.PersistenceException;
import jakarta.transaction.Status;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.MultivaluedMap;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.ext.ContextResolver;
import jakarta.ws.rs.ext.ExceptionMapper;
import jakarta.ws.rs.ext.MessageBodyReader;
import jakarta.ws.rs.ext.MessageBodyWriter;
import jakarta.ws.rs.ext.Providers;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.lang.annotation.Annotation;
import java.lang.reflect.Method;
import java.lang.reflect.Type;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The {@link Idempotent @Idempotent} rules, row by row, without a container: what a request gets (the method's
 * response, stored or not; a replay; a problem; an exception), whether its transaction is left marked for rollback,
 * what is stored under its key, and what it is reported as once the transaction has ended. The exchange runs against a
 * transaction, an invocation, a ledger of stored responses and an event of this test's making, with a Jakarta REST
 * runtime for the responses; what only a server shows (the filter's fingerprint of a real request, the principal a
 * security context gives, a real commit) stays in {@code HttpIdempotencyIT}.
 */
class IdempotentRulesTest {

    private static final String METHOD = "com.example.Orders.create";
    private static final String SCOPE = "orders";
    private static final String HEADER = "Idempotency-Key";
    private static final String KEY = "4b1c0a5e-6b2f-4a8e-9d1e-0c1f2a3b4c5d";
    private static final String BODY = "{\"id\":1}";

    /** What the request carries and what the method and the claim do. */
    enum Row {
        /** No key where it is optional: the method runs and answers 200, as if it had no rules. */
        NO_KEY_OPTIONAL,
        /** No key where it is optional, and the method throws. */
        NO_KEY_OPTIONAL_THROWS,
        /** No key where one is required. */
        NO_KEY,
        /** Two key headers. */
        TWO_KEYS,
        /** A key longer than the settings allow. */
        KEY_TOO_LONG,
        /** Keys per caller, and no authenticated caller. */
        NO_PRINCIPAL,
        /** A first request: the method answers 201 with a body. */
        FIRST,
        /** A first request of a caller, where each caller's keys are its own. */
        FIRST_OF_A_CALLER,
        /** A first request whose method returns null. */
        RETURNS_NULL,
        /** A first request whose method answers 404: a client error is stored like a success. */
        ANSWERS_404,
        /** A retry of a request whose response is stored. */
        RETRY,
        /** The key came before with another request. */
        KEY_REUSED,
        /** The claim meets a marker held past the bound: the first request still runs. */
        CLAIM_HELD,
        /** The claim conflicts with a concurrent transaction (SQLSTATE 40001). */
        CLAIM_CONFLICTS,
        /** The claim's statement fails otherwise. */
        CLAIM_FAILS,
        /** The method throws. */
        THROWS,
        /** The method marks its transaction for rollback, then answers 200. */
        MARKS_ROLLBACK,
        /** The method marks its transaction for rollback, then answers 404. */
        MARKS_ROLLBACK_404,
        /** The method answers 503. */
        ANSWERS_503,
        /** The method's body is longer than the settings allow. */
        BODY_TOO_LONG,
        /** The method's entity has no writer. */
        NO_WRITER,
        /** The filter did not fingerprint the request. */
        NO_FINGERPRINT,
        /** A committed marker without a stored response: another binding shares the scope. */
        MARKER_WITHOUT_RESPONSE,
        /** The method runs without a transaction. */
        NO_TRANSACTION
    }

    @ParameterizedTest(name = "{0}: {1}, marked {2}, reported {3}, invoked {4}, stored {5}")
    @CsvSource(delimiter = '|', textBlock = """
            # row                   | the request gets              | marked | reported    | invoked | stored
            NO_KEY_OPTIONAL         | 200 returned                  | false  | -           | true    | -
            NO_KEY_OPTIONAL_THROWS  | throws IllegalStateException  | false  | -           | true    | -
            NO_KEY                  | 400 key-missing               | false  | MISSING_ID  | false   | -
            TWO_KEYS                | 400 key-invalid               | false  | INVALID_KEY | false   | -
            KEY_TOO_LONG            | 400 key-invalid               | false  | INVALID_KEY | false   | -
            NO_PRINCIPAL            | 403 no-principal              | false  | INVALID_KEY | false   | -
            FIRST                   | 201 stored                    | false  | PROCESSED   | true    | 201
            FIRST_OF_A_CALLER       | 201 stored                    | false  | PROCESSED   | true    | 201
            RETURNS_NULL            | 204 stored                    | false  | PROCESSED   | true    | 204
            ANSWERS_404             | 404 stored                    | false  | PROCESSED   | true    | 404
            RETRY                   | 201 replayed                  | false  | DUPLICATE   | false   | 201
            KEY_REUSED              | 422 key-reused                | false  | KEY_REUSED  | false   | 201
            CLAIM_HELD              | 409 in-progress               | true   | HELD        | false   | -
            CLAIM_CONFLICTS         | 409 in-progress               | true   | HELD        | false   | -
            CLAIM_FAILS             | throws PersistenceException   | true   | FAILURE     | false   | -
            THROWS                  | throws IllegalStateException  | true   | FAILURE     | true    | -
            MARKS_ROLLBACK          | 500 rolled-back               | true   | ROLLED_BACK | true    | -
            MARKS_ROLLBACK_404      | 404 returned                  | true   | ROLLED_BACK | true    | -
            ANSWERS_503             | 503 returned                  | true   | FAILURE     | true    | -
            BODY_TOO_LONG           | 500 not-stored                | true   | FAILURE     | true    | -
            NO_WRITER               | 500 not-stored                | true   | FAILURE     | true    | -
            NO_FINGERPRINT          | throws IllegalStateException  | true   | FAILURE     | false   | -
            MARKER_WITHOUT_RESPONSE | throws IllegalStateException  | true   | FAILURE     | false   | -
            NO_TRANSACTION          | throws NoActiveTransactionException | false | -      | false   | -
            """)
    void aRequestEndsAsTheRulesSay(Row row, String gets, boolean marked, String reported, boolean invoked,
            String stored) {
        Exchange made = new Exchange(row);
        Object answered = made.run();
        expect(gets, answered, made);
        assertEquals(marked, made.transaction.marked(), "whether the request left its transaction marked for rollback");
        assertEquals(invoked, made.invocation.proceeded(), "whether the method ran");
        assertEquals(stored, made.ledger.storedStatus(), "the status stored under the key");
        assertEquals(List.of(), made.events.fired(), "an event before the transaction ended");
        if (row != Row.NO_TRANSACTION) {
            made.transaction.end();
        }
        if (reported.equals("-")) {
            assertEquals(List.of(), made.events.fired(), "a request no rule applied to is not reported");
            return;
        }
        InboxEvent event = made.events.only();
        assertEquals(InboxOutcome.valueOf(reported), event.outcome());
        assertEquals(SCOPE, event.scope(), "the method's scope, also where each caller's keys are their own");
        assertEquals(METHOD, event.method());
        boolean keyRead = !List.of(Row.NO_KEY, Row.TWO_KEYS, Row.KEY_TOO_LONG).contains(row);
        assertEquals(keyRead ? KEY : null, event.messageId(), "the key reported");
        if (event.outcome() == InboxOutcome.PROCESSED || event.outcome() == InboxOutcome.DUPLICATE) {
            assertNull(event.reason(), "a first run or a replay needs no reason");
        } else {
            assertTrue(event.reason() != null && !event.reason().isBlank(), "a reason for " + event.outcome());
        }
    }

    @ParameterizedTest(name = "{0}, decided to commit, but the commit fails: reported ROLLED_BACK")
    @CsvSource({"FIRST, 201 stored, PROCESSED", "RETRY, 201 replayed, DUPLICATE"})
    void anAnswerWhoseCommitFailsIsReportedRolledBack(Row row, String gets, InboxOutcome decided) {
        Exchange made = new Exchange(row);
        expect(gets, made.run(), made);
        made.transaction.endRolledBack();
        InboxEvent event = made.events.only();
        assertEquals(InboxOutcome.ROLLED_BACK, event.outcome());
        assertEquals(decided + " decided, but the transaction did not commit (status 4): its commit failed, or it "
                + "timed out", event.reason());
    }

    @ParameterizedTest(name = "{0}: the transaction times out while the method runs: {1}, reported {2} at once")
    @CsvSource(delimiter = '|', textBlock = """
            FIRST       | 500 rolled-back              | ROLLED_BACK
            ANSWERS_404 | 404 returned                 | ROLLED_BACK
            THROWS      | throws IllegalStateException | FAILURE
            """)
    void aTransactionThatEndsWhileTheMethodRunsIsReportedOnceAnswered(Row row, String gets, InboxOutcome reported) {
        Exchange made = new Exchange(row);
        made.timesOut = true;
        expect(gets, made.run(), made);
        assertEquals("-", made.ledger.storedStatus(), "a response stored after the transaction ended");
        // The transaction ended on the timeout's thread while the method ran: the answer reports at once.
        assertEquals(reported, made.events.only().outcome());
    }

    /** Checks what the request got against a cell of the table. */
    private static void expect(String gets, Object answered, Exchange made) {
        if (gets.startsWith("throws ")) {
            Throwable thrown = assertInstanceOf(Throwable.class, answered, "what the request got");
            assertEquals(gets.substring("throws ".length()), thrown.getClass().getSimpleName(),
                    () -> "what the call threw: " + thrown);
            return;
        }
        Response response = assertInstanceOf(Response.class, answered, "what the request got");
        String[] cell = gets.split(" ");
        assertEquals(Integer.parseInt(cell[0]), response.getStatus(), "the status");
        boolean replayed = "true".equals(response.getHeaderString(Idempotent.REPLAYED));
        assertEquals(cell[1].equals("replayed"), replayed, "whether the response says it is a replay");
        switch (cell[1]) {
            case "returned" -> assertTrue(response == made.returned, "the method's own response, unchanged");
            case "stored" -> assertArrayEquals(made.ledger.stored.body(), bytes(response),
                    "the body sent is the body stored");
            case "replayed" -> {
                assertArrayEquals(made.ledger.stored.body(), bytes(response), "the stored body");
                assertEquals("application/json", response.getHeaderString("Content-Type"));
            }
            default -> {
                Problems problem = Problems.valueOf(cell[1].toUpperCase(java.util.Locale.ROOT).replace('-', '_'));
                assertEquals(problem.status(), response.getStatus());
                assertEquals(Problems.MEDIA_TYPE, response.getMediaType().toString());
                String body = assertInstanceOf(String.class, response.getEntity());
                assertTrue(body.contains("\"type\":\"" + problem.type() + "\""), body);
                if (problem == Problems.IN_PROGRESS) {
                    assertEquals(Long.toString(InboxSettings.DEFAULTS.claimMaxWait().toSeconds()),
                            response.getHeaderString("Retry-After"), "the claim's wait, in seconds");
                }
            }
        }
    }

    private static byte[] bytes(Response response) {
        Object entity = response.getEntity();
        if (entity == null) {
            return new byte[0];
        }
        return entity instanceof byte[] raw ? raw : fail("a body that is not the stored bytes: " + entity);
    }

    /** A resource method, whose annotations the body writer sees. */
    public static final class Orders {

        /**
         * Creates an order.
         *
         * @param order the order
         * @return the response
         */
        public Response create(String order) {
            throw new UnsupportedOperationException("the test's invocation runs the body");
        }
    }

    /** One request of an {@code @Idempotent} method, set up for a row. */
    private static final class Exchange {

        final Row row;
        final TestTransaction transaction;
        final FiredEvents events = new FiredEvents();
        final Ledger ledger = new Ledger();
        final TestInvocation invocation;
        final KeyRules binding;
        final IdempotentExchange.Request request;
        Response returned;
        boolean timesOut;

        Exchange(Row row) {
            this.row = row;
            transaction = row == Row.NO_TRANSACTION ? TestTransaction.none() : new TestTransaction();
            binding = new KeyRules(METHOD, SCOPE, HEADER, row != Row.NO_KEY_OPTIONAL
                    && row != Row.NO_KEY_OPTIONAL_THROWS, row == Row.NO_PRINCIPAL || row == Row.FIRST_OF_A_CALLER);
            List<String> keys = switch (row) {
                case NO_KEY_OPTIONAL, NO_KEY_OPTIONAL_THROWS, NO_KEY -> List.of();
                case TWO_KEYS -> List.of(KEY, KEY);
                case KEY_TOO_LONG -> List.of("k".repeat(InboxSettings.DEFAULTS.maxMessageIdBytes() + 1));
                default -> List.of(KEY);
            };
            RequestFingerprint fingerprint = row == Row.NO_FINGERPRINT ? null : fingerprint(BODY);
            request = new IdempotentExchange.Request(keys, row == Row.FIRST_OF_A_CALLER ? "alice" : null,
                    fingerprint, new Writers());
            if (row == Row.RETRY || row == Row.KEY_REUSED) {
                ledger.stored = new RecordedResponse(fingerprint(row == Row.RETRY ? BODY : "{\"id\":2}").finish(),
                        201, Map.of("Content-Type", "application/json"), BODY.getBytes(StandardCharsets.UTF_8));
            }
            Method create;
            try {
                create = Orders.class.getMethod("create", String.class);
            } catch (NoSuchMethodException e) {
                throw new AssertionError(e);
            }
            invocation = new TestInvocation(create, BODY, this::method);
        }

        Object run() {
            IdempotentExchange exchange = new IdempotentExchange(binding, ledger, ledger.responses,
                    InboxSettings.DEFAULTS, IdempotentSettings.DEFAULTS, transaction, events);
            try {
                return exchange.answer(invocation, request);
            } catch (Exception e) {
                return e;
            }
        }

        /** The method's body for the row. */
        private Object method() {
            if (timesOut) {
                transaction.timeOut();
            }
            returned = switch (row) {
                case RETURNS_NULL -> null;
                case ANSWERS_404 -> Response.status(404).entity("{\"error\":\"no such customer\"}")
                        .type(MediaType.APPLICATION_JSON_TYPE).build();
                case NO_KEY_OPTIONAL -> Response.ok(BODY, MediaType.APPLICATION_JSON_TYPE).build();
                case MARKS_ROLLBACK -> {
                    transaction.setRollbackOnly();
                    yield Response.ok(BODY, MediaType.APPLICATION_JSON_TYPE).build();
                }
                case MARKS_ROLLBACK_404 -> {
                    transaction.setRollbackOnly();
                    yield Response.status(404).build();
                }
                case ANSWERS_503 -> Response.status(503).build();
                case BODY_TOO_LONG -> Response.status(201).type(MediaType.APPLICATION_JSON_TYPE)
                        .entity("x".repeat(IdempotentSettings.DEFAULTS.maxResponseBytes() + 1)).build();
                case NO_WRITER -> Response.status(201).type(MediaType.APPLICATION_JSON_TYPE).entity(new Object())
                        .build();
                case THROWS, NO_KEY_OPTIONAL_THROWS -> throw new IllegalStateException("the order is malformed");
                default -> Response.status(201).entity(BODY).type(MediaType.APPLICATION_JSON_TYPE).build();
            };
            return returned;
        }

        /** What the table holds for this row's key: a claim, and the response stored under it. */
        private final class Ledger extends InboxRepository {

            RecordedResponse stored;
            String claimedScope;
            final Responses responses = new Responses();

            String storedStatus() {
                return stored == null ? "-" : Integer.toString(stored.status());
            }

            @Override
            public boolean claim(String scope, String messageId) {
                assertEquals(KEY, messageId);
                assertEquals(Status.STATUS_ACTIVE, transaction.status(), "a claim outside an active transaction");
                assertEquals(row == Row.FIRST_OF_A_CALLER ? binding.scopeOf("alice") : SCOPE, scope,
                        "the scope the key is claimed in");
                claimedScope = scope;
                switch (row) {
                    case CLAIM_HELD -> {
                        // As the repository does: the claim's failure leaves the transaction marked.
                        transaction.setRollbackOnly();
                        throw new InboxMarkerHeldException("another transaction held the marker for 5 s",
                                new PersistenceException("ERROR: canceling statement due to lock timeout"));
                    }
                    case CLAIM_CONFLICTS -> {
                        transaction.setRollbackOnly();
                        throw new InboxConflictException("the claim conflicted", "40001",
                                new PersistenceException("ERROR: could not serialize access"));
                    }
                    case CLAIM_FAILS -> throw new PersistenceException("ERROR: relation \"inbox\" does not exist");
                    default -> {
                        return row != Row.RETRY && row != Row.KEY_REUSED && row != Row.MARKER_WITHOUT_RESPONSE;
                    }
                }
            }

            /** The response columns of the key's row. */
            private final class Responses extends ResponseStore {

                @Override
                public Optional<RecordedResponse> recorded(String scope, String messageId) {
                    assertEquals(claimedScope, scope);
                    assertEquals(KEY, messageId);
                    return Optional.ofNullable(stored);
                }

                @Override
                public void record(String scope, String messageId, RecordedResponse response) {
                    assertEquals(claimedScope, scope);
                    assertEquals(KEY, messageId);
                    assertEquals(Status.STATUS_ACTIVE, transaction.status(), "a response stored that will not "
                            + "commit");
                    assertArrayEquals(fingerprint(BODY).finish(), response.requestFingerprint());
                    stored = response;
                }
            }
        }
    }

    private static RequestFingerprint fingerprint(String body) {
        RequestFingerprint fingerprint = new RequestFingerprint("POST", "/orders",
                new ByteArrayInputStream(body.getBytes(StandardCharsets.UTF_8)));
        try {
            fingerprint.readAllBytes();
        } catch (IOException e) {
            throw new AssertionError(e);
        }
        return fingerprint;
    }

    /** The application's providers, as far as storing a body needs them: writers of strings. */
    private static final class Writers implements Providers {

        @Override
        @SuppressWarnings("unchecked")
        public <T> MessageBodyWriter<T> getMessageBodyWriter(Class<T> type, Type genericType,
                Annotation[] annotations, MediaType mediaType) {
            if (type != String.class) {
                return null;
            }
            return (MessageBodyWriter<T>) new MessageBodyWriter<String>() {
                @Override
                public boolean isWriteable(Class<?> t, Type g, Annotation[] a, MediaType m) {
                    return t == String.class;
                }

                @Override
                public void writeTo(String text, Class<?> t, Type g, Annotation[] a, MediaType m,
                        MultivaluedMap<String, Object> headers, OutputStream out) throws IOException {
                    out.write(text.getBytes(StandardCharsets.UTF_8));
                }
            };
        }

        @Override
        public <T> MessageBodyReader<T> getMessageBodyReader(Class<T> type, Type genericType,
                Annotation[] annotations, MediaType mediaType) {
            throw new UnsupportedOperationException("nothing is read");
        }

        @Override
        public <T extends Throwable> ExceptionMapper<T> getExceptionMapper(Class<T> type) {
            throw new UnsupportedOperationException("nothing is mapped");
        }

        @Override
        public <T> ContextResolver<T> getContextResolver(Class<T> contextType, MediaType mediaType) {
            throw new UnsupportedOperationException("nothing is resolved");
        }
    }
}
