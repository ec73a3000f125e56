package io.github.txinbox.internal.http;

import io.github.txinbox.Idempotent;
import io.github.txinbox.InboxConflictException;
import io.github.txinbox.InboxEvent;
import io.github.txinbox.InboxMarkerHeldException;
import io.github.txinbox.InboxOutcome;
import io.github.txinbox.InboxRepository;
import io.github.txinbox.InboxSettings;
import io.github.txinbox.NoActiveTransactionException;
import io.github.txinbox.RecordedResponse;
import jakarta.enterprise.event.Event;
import jakarta.enterprise.inject.spi.CDI;
import jakarta.interceptor.InvocationContext;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.transaction.Status;
import jakarta.transaction.Synchronization;
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
 * Applies the {@link Idempotent @Idempotent} rules to one call of a resource method, in the method's transaction: reads
 * the key, claims it, and either answers in the method's place (a problem, a replay of the stored response) or runs the
 * method and stores its response before the transaction commits. Each rule is decided here, in one place; the Jakarta
 * REST filter only fingerprints the request. The interceptor ({@code IdempotencyInterceptor}) hands each call here, so
 * that it names no Jakarta REST or Servlet type and loads on a server without them.
 */
public final class IdempotentExchange {

    private static final Logger LOG = Logger.getLogger(Idempotent.class.getName());

    private final KeyRules binding;
    private final HttpServletRequest request;
    private final InboxRepository repository;
    private final InboxSettings settings;
    private final TransactionSynchronizationRegistry transactions;
    /** The scope this request's key is stored under: the method's, or its caller's ({@link KeyRules#scopeOf}). */
    private String scope;
    /** What the call is reported as once its transaction ends ({@link #decided}); {@code null}: not reported. */
    private InboxOutcome outcome;
    private String key;
    private String reason;

    private IdempotentExchange(KeyRules binding, HttpServletRequest request, InboxRepository repository,
            InboxSettings settings, TransactionSynchronizationRegistry transactions) {
        this.binding = binding;
        this.request = request;
        this.repository = repository;
        this.settings = settings;
        this.transactions = transactions;
        this.scope = binding.scope();
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
     * @param repository   the inbox's repository
     * @param settings     the application's settings
     * @param transactions the transaction registry
     * @param events       where the call is reported once its transaction ends
     * @return the response
     * @throws Exception what the method threw, unchanged, after marking its transaction for rollback
     */
    public static Object answer(InvocationContext invocation, KeyRules binding, Object request,
            InboxRepository repository, InboxSettings settings, TransactionSynchronizationRegistry transactions,
            Event<InboxEvent> events) throws Exception {
        long start = System.nanoTime();
        IdempotentExchange exchange = new IdempotentExchange(binding, (HttpServletRequest) request, repository,
                settings, transactions);
        Report report = null;
        if (transactions.getTransactionStatus() == Status.STATUS_ACTIVE) {
            // Registered while the transaction is active; its end, not the method's return, is what gets reported.
            report = new Report(binding, events, start);
            transactions.registerInterposedSynchronization(report);
        }
        try {
            return exchange.answer(invocation);
        } catch (Exception | Error e) {
            if (exchange.outcome == null) {
                exchange.decided(InboxOutcome.FAILURE, failure(e));
            }
            throw e;
        } finally {
            if (report != null) {
                report.decided(exchange.outcome, exchange.key, exchange.reason);
            }
        }
    }

    /** Notes what the call is reported as once its transaction has ended. */
    private void decided(InboxOutcome decided, String why) {
        outcome = decided;
        reason = why;
    }

    private Object answer(InvocationContext invocation) throws Exception {
        IdempotencyKeys.Read read = IdempotencyKeys.read(binding.header(),
                Collections.list(request.getHeaders(binding.header())), settings.maxMessageIdBytes());
        if (read instanceof IdempotencyKeys.Missing) {
            if (!binding.required()) {
                return invocation.proceed();
            }
            decided(InboxOutcome.MISSING_ID, "no " + binding.header() + " header");
            return Problems.KEY_MISSING.answer("This request needs the header " + binding.header() + ": a key the "
                    + "client makes up for this request (a UUID) and sends again, unchanged, with each retry of it")
                    .build();
        }
        if (read instanceof IdempotencyKeys.Invalid invalid) {
            decided(InboxOutcome.INVALID_KEY, invalid.detail());
            return Problems.KEY_INVALID.answer(invalid.detail() + ". Send one key of printable ASCII, at most "
                    + settings.maxMessageIdBytes() + " characters long").build();
        }
        String key = ((IdempotencyKeys.Key) read).key();
        this.key = key;
        if (binding.perPrincipal()) {
            if (!(request.getAttribute(RequestCapture.PRINCIPAL) instanceof String caller)) {
                decided(InboxOutcome.INVALID_KEY, "no authenticated caller, where each caller's keys are its own");
                return Problems.NO_PRINCIPAL.answer("This endpoint keeps each caller's keys apart, and this request "
                        + "has no authenticated caller. Send it with the credentials of the caller the key belongs to")
                        .build();
            }
            scope = binding.scopeOf(caller);
        }
        if (!(request.getAttribute(RequestFingerprint.PROPERTY) instanceof RequestFingerprint fingerprint)) {
            throw new IllegalStateException("@Idempotent " + binding.description() + " cannot tell this request from "
                    + "another with the same key: Jakarta REST did not apply " + RequestCapture.class.getName()
                    + ". Its feature, " + IdempotencyFeature.class.getName() + ", is found by the "
                    + "application's scan; an Application that lists its classes in getClasses() lists it too");
        }
        int status = transactions.getTransactionStatus();
        if (status != Status.STATUS_ACTIVE) {
            throw new NoActiveTransactionException("@Idempotent " + binding.description(), status);
        }
        byte[] requestFingerprint = fingerprint.finish();
        boolean claimed;
        try {
            claimed = repository.claim(scope, key);
        } catch (InboxMarkerHeldException | InboxConflictException e) {
            // The claim marked the transaction for rollback; nothing was written. The cause stays in the log: it
            // speaks of the server's transactions, not of the client's request.
            LOG.info(() -> "@Idempotent " + binding.description() + " answered 409 for " + key + " in scope "
                    + scope + ": " + e.getMessage());
            long seconds = Math.max(1, (settings.claimMaxWait().toMillis() + 999) / 1000);
            decided(InboxOutcome.HELD, e.getMessage());
            return Problems.IN_PROGRESS.answer("A request with this key is still being processed. Send it again, "
                    + "with the same key, after " + seconds + " s: it then gets that request's response")
                    .header(HttpHeaders.RETRY_AFTER, seconds).build();
        }
        if (!claimed) {
            return replay(key, requestFingerprint);
        }
        Response returned;
        try {
            returned = (Response) invocation.proceed();
        } catch (Exception | Error e) {
            markRollbackOnly(e);
            decided(InboxOutcome.FAILURE, failure(e));
            throw e;
        }
        return store(key, requestFingerprint, invocation, returned);
    }

    /** Answers a retry with the stored response, or 422 where the key came with another request. */
    private Response replay(String key, byte[] requestFingerprint) {
        Optional<RecordedResponse> stored = repository.recordedResponse(scope, key);
        if (stored.isEmpty()) {
            throw new IllegalStateException("@Idempotent " + binding.description() + " found a committed marker of "
                    + key + " in scope " + scope + " without a stored response: an @Inbox method or a "
                    + "direct claim uses the same scope; give @Idempotent a scope of its own");
        }
        RecordedResponse recorded = stored.get();
        if (!recorded.answers(requestFingerprint)) {
            decided(InboxOutcome.KEY_REUSED, "the key came before with another request (another method, path, query "
                    + "or body)");
            return Problems.KEY_REUSED.answer("The key " + key + " was used before for another request (another "
                    + "method, path, query or body), whose response is stored. Send a new key for a new request")
                    .build();
        }
        LOG.fine(() -> "Replayed " + key + " in scope " + scope + " for " + binding.description());
        decided(InboxOutcome.DUPLICATE, null);
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

    /**
     * Stores the method's response and returns it with its body as stored; stores nothing where the transaction will
     * not commit (a 5xx rolls it back).
     */
    private Response store(String key, byte[] requestFingerprint, InvocationContext invocation, Response returned) {
        Response response = returned != null ? returned : Response.noContent().build();
        if (transactions.getTransactionStatus() != Status.STATUS_ACTIVE) {
            decided(InboxOutcome.ROLLED_BACK, "the method answered " + response.getStatus() + " with its transaction "
                    + "marked for rollback");
            if (response.getStatus() < 400) {
                return Problems.ROLLED_BACK.answer("The request's transaction was marked for rollback, so nothing of "
                        + "it was committed although it answered " + response.getStatus() + ". Send it again with the "
                        + "same key").build();
            }
            return response;
        }
        if (response.getStatus() >= 500) {
            markRollbackOnly(null);
            decided(InboxOutcome.FAILURE, "the method answered " + response.getStatus() + ", which is not stored");
            return response;
        }
        ResponseBodies.Written written;
        try {
            written = ResponseBodies.write(response, (Providers) request.getAttribute(RequestCapture.PROVIDERS),
                    invocation.getMethod(), settings.maxResponseBytes());
        } catch (ResponseBodies.NotStorable e) {
            markRollbackOnly(e);
            LOG.log(Level.WARNING, e, () -> "@Idempotent " + binding.description() + " could not store its response "
                    + "to " + key + ", so its transaction rolls back: " + e.getMessage());
            decided(InboxOutcome.FAILURE, "the response could not be stored: " + e.getMessage());
            return Problems.NOT_STORED.answer("The response could not be stored, so nothing of this request was "
                    + "committed: " + e.getMessage() + ". The server must be changed before a retry can succeed")
                    .build();
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
        repository.recordResponse(scope, key,
                new RecordedResponse(requestFingerprint, response.getStatus(), headers, written.bytes()));
        decided(InboxOutcome.PROCESSED, null);
        Response.ResponseBuilder sent = Response.fromResponse(response);
        if (written.bytes().length > 0) {
            sent.entity(written.bytes()).type(written.mediaType());
        }
        return sent.build();
    }

    private static String failure(Throwable e) {
        return e.getMessage() == null ? e.getClass().getName() : e.getClass().getName() + ": " + e.getMessage();
    }

    /**
     * Reports a call once both its decision and its transaction's end are known (usually in that order on one thread,
     * but a timeout may roll the transaction back on another while the method runs): an {@link InboxEvent} under the
     * method's scope (not a caller's, so that metrics stay one series per scope), which the inbox's metrics count too.
     * A decision to commit whose transaction did not commit is {@link InboxOutcome#ROLLED_BACK}; a call with nothing
     * decided (a key that was optional and absent) is not reported.
     */
    private static final class Report implements Synchronization {

        private final KeyRules binding;
        private final Event<InboxEvent> events;
        private final long start;
        private boolean decided;
        private InboxOutcome outcome;
        private String key;
        private String reason;
        private Integer status;

        Report(KeyRules binding, Event<InboxEvent> events, long start) {
            this.binding = binding;
            this.events = events;
            this.start = start;
        }

        void decided(InboxOutcome decidedOutcome, String decidedKey, String decidedReason) {
            Integer ended;
            synchronized (this) {
                decided = true;
                outcome = decidedOutcome;
                key = decidedKey;
                reason = decidedReason;
                ended = status;
            }
            if (ended != null) {
                report(ended);
            }
        }

        @Override
        public void beforeCompletion() {
            // Nothing to do before the commit: the marker and the response are written.
        }

        @Override
        public void afterCompletion(int ended) {
            boolean known;
            synchronized (this) {
                status = ended;
                known = decided;
            }
            if (known) {
                report(ended);
            }
        }

        private void report(int ended) {
            if (outcome == null || events == null) {
                return;
            }
            InboxOutcome reported = outcome;
            String why = reason;
            if ((outcome == InboxOutcome.PROCESSED || outcome == InboxOutcome.DUPLICATE)
                    && ended != Status.STATUS_COMMITTED) {
                reported = InboxOutcome.ROLLED_BACK;
                why = outcome + " decided, but the transaction did not commit (status " + ended + "): its commit "
                        + "failed, or it timed out";
            }
            InboxEvent event = new InboxEvent(binding.scope(), key,
                    reported, why, Duration.ofNanos(Math.max(0, System.nanoTime() - start)), binding.description());
            try {
                events.fire(event);
            } catch (RuntimeException e) {
                LOG.log(Level.WARNING, e, () -> "An observer of " + event + " failed; the answer stands");
            }
        }
    }

    private void markRollbackOnly(Throwable cause) {
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
