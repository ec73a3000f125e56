package io.github.txinbox.http.internal;

import static io.github.txinbox.spi.CallCompletion.failure;

import io.github.txinbox.InboxConflictException;
import io.github.txinbox.InboxEvent;
import io.github.txinbox.InboxMarkerHeldException;
import io.github.txinbox.InboxOutcome;
import io.github.txinbox.InboxRepository;
import io.github.txinbox.InboxSettings;
import io.github.txinbox.NoActiveTransactionException;
import io.github.txinbox.http.Idempotent;
import io.github.txinbox.http.IdempotentSettings;
import io.github.txinbox.spi.CallCompletion;
import jakarta.enterprise.event.Event;
import jakarta.enterprise.inject.spi.CDI;
import jakarta.interceptor.InvocationContext;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.transaction.Status;
import jakarta.transaction.TransactionSynchronizationRegistry;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.ext.Providers;
import java.net.URI;
import java.time.Duration;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Applies the {@link io.github.txinbox.http.Idempotent @Idempotent} rules to one call of a resource method, in the method's transaction. It
 * first decides: reads the key, claims it, and either answers in the method's place (a problem, a replay of the stored
 * response) or runs the method and stores its response; the decision is one {@link Answer}. Then one place applies it
 * ({@link #settle}): marks the transaction for rollback where the answer says so, logs, and returns or throws. Once the
 * transaction has ended, the call is reported as {@code @Inbox} calls are: an {@link InboxEvent}, which the metrics
 * count. The Jakarta REST filter only fingerprints the request. The interceptor ({@code IdempotencyInterceptor}) hands
 * each call here, so that it names no Jakarta REST or Servlet type and loads on a server without them.
 */
public final class IdempotentExchange {

    private static final Logger LOG = Logger.getLogger(Idempotent.class.getName());

    /**
     * What the rules read of a request.
     *
     * @param keys        the values of the key's header, in the order sent (none, one, or several)
     * @param principal   the authenticated caller's name, {@code null} for none
     * @param fingerprint the request's fingerprint, {@code null} where the filter did not run
     * @param providers   the application's providers, which write a response's body to store it
     */
    record Request(List<String> keys, String principal, RequestFingerprint fingerprint, Providers providers) {

        static Request of(HttpServletRequest request, String header) {
            return new Request(Collections.list(request.getHeaders(header)),
                    request.getAttribute(RequestCapture.PRINCIPAL) instanceof String caller ? caller : null,
                    request.getAttribute(RequestFingerprint.PROPERTY) instanceof RequestFingerprint f ? f : null,
                    (Providers) request.getAttribute(RequestCapture.PROVIDERS));
        }
    }

    /**
     * What one request was decided to get.
     *
     * @param outcome  what the call is reported as once its transaction ends; {@code null}: not reported (a key that
     *                 was optional and absent)
     * @param key      the request's key, {@code null} where none was read
     * @param scope    the scope the key is stored under: the method's, or its caller's ({@link KeyRules#scopeOf})
     * @param reason   why, for the event; {@code null} for a first run or a replay
     * @param rollback whether the transaction is marked for rollback before the call returns or throws
     * @param reply    what the call returns; {@code null}: it throws {@code cause}
     * @param cause    what the call throws, or what caused the reply (logged with it)
     */
    record Answer(InboxOutcome outcome, String key, String scope, String reason, boolean rollback, Reply reply,
            Throwable cause) {

        static Answer replied(InboxOutcome outcome, String key, String scope, String reason, Reply reply) {
            return new Answer(outcome, key, scope, reason, false, reply, null);
        }

        static Answer thrown(String key, String scope, boolean rollback, Throwable cause) {
            return new Answer(InboxOutcome.FAILURE, key, scope, failure(cause), rollback, null, cause);
        }
    }

    /** What a call returns, as a value until it is returned. */
    sealed interface Reply {

        /**
         * Returns what the call returns.
         *
         * @return the method's own return value, or a response built from this reply
         */
        Object response();
    }

    /** The method's own return value: its key was optional and absent, so no rule applied. */
    record Proceeded(Object returned) implements Reply {

        @Override
        public Object response() {
            return returned;
        }
    }

    /** A problem in the method's place, with {@code Retry-After} where {@code retryAfterSeconds} is not null. */
    record Problem(Problems problem, String detail, Long retryAfterSeconds) implements Reply {

        @Override
        public Response response() {
            Response.ResponseBuilder answer = problem.answer(detail);
            if (retryAfterSeconds != null) {
                answer.header(HttpHeaders.RETRY_AFTER, retryAfterSeconds);
            }
            return answer.build();
        }
    }

    /** The stored response of the first request with the key, marked as a replay. */
    record Replay(RecordedResponse recorded) implements Reply {

        @Override
        public Response response() {
            Response.ResponseBuilder replay = Response.status(recorded.status()).header(Idempotent.REPLAYED, "true");
            byte[] body = recorded.body();
            if (body.length > 0) {
                replay.entity(body);
            }
            recorded.headers().forEach((name, value) -> {
                if (name.equalsIgnoreCase(HttpHeaders.LOCATION)) {
                    replay.location(URI.create(value));
                } else {
                    replay.header(name, value);
                }
            });
            return replay.build();
        }
    }

    /** The method's response as it returned it, not stored (its transaction does not commit). */
    record AsReturned(Response response) implements Reply {
    }

    /** The method's response, stored, with its body as stored. */
    record Stored(Response returned, ResponseBodies.Written written) implements Reply {

        @Override
        public Response response() {
            Response.ResponseBuilder sent = Response.fromResponse(returned);
            if (written.bytes().length > 0) {
                sent.entity(written.bytes()).type(written.mediaType());
            }
            return sent.build();
        }
    }

    private final KeyRules binding;
    private final InboxRepository repository;
    private final ResponseStore responses;
    private final InboxSettings settings;
    private final int maxResponseBytes;
    private final TransactionSynchronizationRegistry transactions;
    private final Event<InboxEvent> events;

    IdempotentExchange(KeyRules binding, InboxRepository repository, ResponseStore responses, InboxSettings settings,
            IdempotentSettings httpSettings, TransactionSynchronizationRegistry transactions,
            Event<InboxEvent> events) {
        this.binding = binding;
        this.repository = repository;
        this.responses = responses;
        this.settings = settings;
        this.maxResponseBytes = httpSettings.maxResponseBytes();
        this.transactions = transactions;
        this.events = events;
    }

    /**
     * Finds the container's {@code HttpServletRequest} bean: a proxy to the current thread's request.
     *
     * @return the proxy
     */
    public static Object servletRequest() {
        return CDI.current().select(HttpServletRequest.class).get();
    }

    /**
     * Answers one call: a problem, a replay, or the method's own response, stored.
     *
     * @param invocation   the intercepted call
     * @param binding      the method's rules
     * @param request      the container's request ({@link #servletRequest()})
     * @param repository   the inbox's repository, which claims the key
     * @param responses    where the response is stored beside the marker
     * @param settings     the application's settings
     * @param httpSettings inbox-http's own settings
     * @param transactions the transaction registry
     * @param events       where the call is reported once its transaction ends
     * @return the response
     * @throws Exception what the method threw, unchanged, after marking its transaction for rollback
     */
    public static Object answer(InvocationContext invocation, KeyRules binding, Object request,
            InboxRepository repository, ResponseStore responses, InboxSettings settings,
            IdempotentSettings httpSettings, TransactionSynchronizationRegistry transactions,
            Event<InboxEvent> events) throws Exception {
        return new IdempotentExchange(binding, repository, responses, settings, httpSettings, transactions, events)
                .answer(invocation, Request.of((HttpServletRequest) request, binding.header()));
    }

    /** Answers one call of a request already read; what the static {@code answer} does once it has read it. */
    Object answer(InvocationContext invocation, Request request) throws Exception {
        long start = System.nanoTime();
        CallCompletion<Answer> completion = null;
        if (transactions.getTransactionStatus() == Status.STATUS_ACTIVE) {
            // Registered while the transaction is active; its end, not the method's return, is what gets reported.
            completion = new CallCompletion<>((answer, ended) -> report(answer, ended, start));
            transactions.registerInterposedSynchronization(completion);
        }
        Answer answer;
        try {
            answer = decide(invocation, request);
        } catch (Exception | Error e) {
            answer = Answer.thrown(null, binding.scope(), false, e);
        }
        return settle(answer, completion);
    }

    /**
     * Decides what the request gets; the repository's claim and the method's run are part of deciding, and so is
     * storing the response.
     */
    private Answer decide(InvocationContext invocation, Request request) {
        IdempotencyKeys.Read read = IdempotencyKeys.read(binding.header(), request.keys(),
                settings.maxMessageIdBytes());
        if (read instanceof IdempotencyKeys.Missing) {
            if (!binding.required()) {
                // No rule applies: the method runs, returns and throws as without @Idempotent, and is not reported.
                Object returned;
                try {
                    returned = invocation.proceed();
                } catch (Exception | Error e) {
                    return new Answer(null, null, binding.scope(), null, false, null, e);
                }
                return Answer.replied(null, null, binding.scope(), null, new Proceeded(returned));
            }
            return Answer.replied(InboxOutcome.MISSING_ID, null, binding.scope(), "no " + binding.header() + " header",
                    new Problem(Problems.KEY_MISSING, "This request needs the header " + binding.header() + ": a key "
                            + "the client makes up for this request (a UUID) and sends again, unchanged, with each "
                            + "retry of it", null));
        }
        if (read instanceof IdempotencyKeys.Invalid invalid) {
            return Answer.replied(InboxOutcome.INVALID_KEY, null, binding.scope(), invalid.detail(),
                    new Problem(Problems.KEY_INVALID, invalid.detail() + ". Send one key of printable ASCII, at most "
                            + settings.maxMessageIdBytes() + " characters long", null));
        }
        String key = ((IdempotencyKeys.Key) read).key();
        String scope = binding.scope();
        try {
            if (binding.perPrincipal()) {
                if (request.principal() == null) {
                    return Answer.replied(InboxOutcome.INVALID_KEY, key, scope, "no authenticated caller, where each "
                            + "caller's keys are its own", new Problem(Problems.NO_PRINCIPAL, "This endpoint keeps "
                            + "each caller's keys apart, and this request has no authenticated caller. Send it with "
                            + "the credentials of the caller the key belongs to", null));
                }
                scope = binding.scopeOf(request.principal());
            }
            return decide(invocation, request, key, scope);
        } catch (Exception | Error e) {
            // Nothing of a request whose rules failed commits: not its marker without its response.
            return Answer.thrown(key, scope, true, e);
        }
    }

    /** Decides for a request with a key, stored under {@code scope}: claims it, then replays or runs and stores. */
    private Answer decide(InvocationContext invocation, Request request, String key, String scope) {
        if (request.fingerprint() == null) {
            throw new IllegalStateException("@Idempotent " + binding.description() + " cannot tell this request from "
                    + "another with the same key: Jakarta REST did not apply " + RequestCapture.class.getName()
                    + ". Its feature, " + IdempotencyFeature.class.getName() + ", is found by the "
                    + "application's scan; an Application that lists its classes in getClasses() lists it too");
        }
        int status = transactions.getTransactionStatus();
        if (status != Status.STATUS_ACTIVE) {
            throw new NoActiveTransactionException("@Idempotent " + binding.description(), status);
        }
        byte[] requestFingerprint = request.fingerprint().finish();
        boolean claimed;
        try {
            claimed = repository.claim(scope, key);
        } catch (InboxMarkerHeldException | InboxConflictException e) {
            // The claim marked the transaction for rollback; nothing was written. The cause stays in the log: it
            // speaks of the server's transactions, not of the client's request.
            long seconds = Math.max(1, (settings.claimMaxWait().toMillis() + 999) / 1000);
            return new Answer(InboxOutcome.HELD, key, scope, e.getMessage(), false,
                    new Problem(Problems.IN_PROGRESS, "A request with this key is still being processed. Send it "
                            + "again, with the same key, after " + seconds + " s: it then gets that request's "
                            + "response", seconds), e);
        }
        if (!claimed) {
            return replay(key, scope, requestFingerprint);
        }
        Response returned;
        try {
            returned = (Response) invocation.proceed();
        } catch (Exception | Error e) {
            return Answer.thrown(key, scope, true, e);
        }
        return store(key, scope, requestFingerprint, invocation, request.providers(), returned);
    }

    /** Answers a retry with the stored response, or 422 where the key came with another request. */
    private Answer replay(String key, String scope, byte[] requestFingerprint) {
        Optional<RecordedResponse> stored = responses.recorded(scope, key);
        if (stored.isEmpty()) {
            throw new IllegalStateException("@Idempotent " + binding.description() + " found a committed marker of "
                    + key + " in scope " + scope + " without a stored response: an @Inbox method or a "
                    + "direct claim uses the same scope; give @Idempotent a scope of its own");
        }
        RecordedResponse recorded = stored.get();
        if (!recorded.answers(requestFingerprint)) {
            return Answer.replied(InboxOutcome.KEY_REUSED, key, scope, "the key came before with another request "
                    + "(another method, path, query or body)", new Problem(Problems.KEY_REUSED, "The key " + key
                    + " was used before for another request (another method, path, query or body), whose response "
                    + "is stored. Send a new key for a new request", null));
        }
        return Answer.replied(InboxOutcome.DUPLICATE, key, scope, null, new Replay(recorded));
    }

    /**
     * Stores the method's response and answers with its body as stored; stores nothing where the transaction will
     * not commit (a 5xx rolls it back).
     */
    private Answer store(String key, String scope, byte[] requestFingerprint, InvocationContext invocation,
            Providers providers, Response returned) {
        Response response = returned != null ? returned : Response.noContent().build();
        if (transactions.getTransactionStatus() != Status.STATUS_ACTIVE) {
            String reason = "the method answered " + response.getStatus() + " with its transaction marked for "
                    + "rollback";
            if (response.getStatus() < 400) {
                return Answer.replied(InboxOutcome.ROLLED_BACK, key, scope, reason, new Problem(Problems.ROLLED_BACK,
                        "The request's transaction was marked for rollback, so nothing of it was committed although "
                        + "it answered " + response.getStatus() + ". Send it again with the same key", null));
            }
            return Answer.replied(InboxOutcome.ROLLED_BACK, key, scope, reason, new AsReturned(response));
        }
        if (response.getStatus() >= 500) {
            return new Answer(InboxOutcome.FAILURE, key, scope, "the method answered " + response.getStatus()
                    + ", which is not stored", true, new AsReturned(response), null);
        }
        ResponseBodies.Written written;
        try {
            written = ResponseBodies.write(response, providers, invocation.getMethod(), maxResponseBytes);
        } catch (ResponseBodies.NotStorable e) {
            return new Answer(InboxOutcome.FAILURE, key, scope, "the response could not be stored: " + e.getMessage(),
                    true, new Problem(Problems.NOT_STORED, "The response could not be stored, so nothing of this "
                    + "request was committed: " + e.getMessage() + ". The server must be changed before a retry "
                    + "can succeed", null), e);
        }
        Map<String, String> headers = new LinkedHashMap<>();
        if (written.mediaType() != null) {
            headers.put(HttpHeaders.CONTENT_TYPE, written.mediaType().toString());
        }
        for (String name : List.of(HttpHeaders.LOCATION, HttpHeaders.ETAG)) {
            String value = response.getHeaderString(name);
            if (value != null) {
                headers.put(name, value);
            }
        }
        responses.record(scope, key,
                new RecordedResponse(requestFingerprint, response.getStatus(), headers, written.bytes()));
        return Answer.replied(InboxOutcome.PROCESSED, key, scope, null, new Stored(response, written));
    }

    /**
     * Applies an answer to the call: builds its reply, marks the transaction for rollback where it says so, logs what
     * the container will not, notes the answer for the report, then returns the reply or throws the cause.
     */
    private Object settle(Answer decided, CallCompletion<Answer> completion) throws Exception {
        Answer answer = decided;
        Object returned = null;
        if (answer.reply() != null) {
            try {
                returned = answer.reply().response();
            } catch (RuntimeException | Error e) {
                answer = Answer.thrown(answer.key(), answer.scope(), answer.rollback(), e);
            }
        }
        if (answer.rollback()) {
            markRollbackOnly(answer.cause());
        }
        log(answer);
        if (completion != null) {
            completion.decided(answer);
        }
        if (answer.reply() != null) {
            return returned;
        }
        if (answer.cause() instanceof Error error) {
            throw error;
        }
        throw (Exception) answer.cause();
    }

    /** Logs an answer that the response alone does not explain to the server's operators. */
    private void log(Answer answer) {
        if (answer.outcome() == InboxOutcome.HELD) {
            LOG.info(() -> "@Idempotent " + binding.description() + " answered 409 for " + answer.key() + " in scope "
                    + answer.scope() + ": " + answer.reason());
        } else if (answer.outcome() == InboxOutcome.DUPLICATE) {
            LOG.fine(() -> "Replayed " + answer.key() + " in scope " + answer.scope() + " for "
                    + binding.description());
        } else if (answer.cause() instanceof ResponseBodies.NotStorable e) {
            LOG.log(Level.WARNING, e, () -> "@Idempotent " + binding.description() + " could not store its response "
                    + "to " + answer.key() + ", so its transaction rolls back: " + e.getMessage());
        }
    }

    /**
     * Reports a call once its transaction has ended: an {@link InboxEvent} under the method's scope (not a caller's,
     * so that metrics stay one series per scope), which the inbox's metrics count too. An answer meant to commit
     * whose transaction did not commit is {@link InboxOutcome#ROLLED_BACK}; a call with nothing decided (a key that
     * was optional and absent) is not reported.
     */
    private void report(Answer answer, int ended, long start) {
        if (answer.outcome() == null || events == null) {
            return;
        }
        InboxOutcome reported = answer.outcome();
        String why = answer.reason();
        if ((reported == InboxOutcome.PROCESSED || reported == InboxOutcome.DUPLICATE)
                && ended != Status.STATUS_COMMITTED) {
            why = CallCompletion.notCommitted(reported, ended);
            reported = InboxOutcome.ROLLED_BACK;
        }
        CallCompletion.fire(events, new InboxEvent(binding.scope(), answer.key(), reported, why,
                Duration.ofNanos(Math.max(0, System.nanoTime() - start)), binding.description()), LOG);
    }

    private void markRollbackOnly(Throwable cause) {
        if (transactions.getTransactionStatus() == Status.STATUS_NO_TRANSACTION) {
            return;
        }
        try {
            transactions.setRollbackOnly();
        } catch (IllegalStateException e) {
            // The transaction already ended (a timeout rolled it back): nothing left to mark.
            if (cause != null) {
                cause.addSuppressed(e);
            }
        }
    }
}
