package io.github.txinbox.http;

import jakarta.enterprise.util.Nonbinding;
import jakarta.interceptor.InterceptorBinding;
import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Runs a Jakarta REST resource method once per idempotency key, and answers a retry with the response the first
 * request committed: the key comes from the request header {@link #header()} ({@code Idempotency-Key} by default), and
 * its marker is an inbox marker, claimed in the method's container-managed transaction, in the inbox table.
 *
 * <p>Put it on a resource method that handles an HTTP method other than {@code GET}, {@code HEAD} and
 * {@code OPTIONS}, returns {@link jakarta.ws.rs.core.Response}, and runs in a transaction of its own:
 * {@code @Transactional} (REQUIRED or REQUIRES_NEW) on a CDI bean, or a session bean's container-managed transaction.
 * Misuse fails the deployment. On the class, it applies to each such method of the class. A resource class that is no
 * CDI bean gets no interceptor: every request to its {@code @Idempotent} methods is refused with 500, before the
 * method runs.
 *
 * <p>The rules, in the method's transaction (docs/http.md has the table, with each answer's problem type):
 * <ul>
 *   <li>first request with a key: the method runs; its marker, its writes and its response (status, body,
 *       {@code Content-Type}, {@code Location}, {@code ETag}) commit together;</li>
 *   <li>a retry after that commit: the method does not run; the stored response is returned, with the header
 *       {@code Idempotent-Replayed: true};</li>
 *   <li>a copy while the first is still running waits for it, at most {@value io.github.txinbox.InboxSettings#CLAIM_MAX_WAIT}, and then
 *       gets the stored response; past that wait, 409 with {@code Retry-After};</li>
 *   <li>the same key with another method, path, query or body: 422;</li>
 *   <li>no key: 400 if {@link #required()}, else the method runs without one;</li>
 *   <li>keys kept per caller ({@link #perPrincipal()}) and no authenticated caller: 403;</li>
 *   <li>a key that is empty, not printable ASCII, longer than {@value io.github.txinbox.InboxSettings#MESSAGE_ID_BYTES} or sent twice:
 *       400;</li>
 *   <li>a first attempt that does not commit stores nothing, and the next attempt runs: the method threw, returned a
 *       5xx, or left its transaction marked for rollback (a 2xx or 3xx it returned then becomes a 500, since none of
 *       it committed). A 4xx the method returned in a transaction that commits is stored and replayed like any
 *       other response;</li>
 *   <li>a response body longer than {@value IdempotentSettings#MAX_RESPONSE_BYTES}: 500, and the transaction rolls
 *       back.</li>
 * </ul>
 *
 * <p>Each request with a key is reported once its transaction has ended, as an {@link io.github.txinbox.InboxEvent} under the method's
 * scope and in the inbox's metrics; {@link io.github.txinbox.InboxOutcome} says which outcome each answer has.
 */
@Inherited
@Documented
@InterceptorBinding
@Retention(RetentionPolicy.RUNTIME)
@Target({ElementType.METHOD, ElementType.TYPE})
public @interface Idempotent {

    /** The header that carries the key unless {@link #header()} names another: {@value}. */
    String IDEMPOTENCY_KEY = "Idempotency-Key";

    /** The header a replayed response carries, with the value {@code true}: {@value}. */
    String REPLAYED = "Idempotent-Replayed";

    /**
     * The request header that carries the key: an HTTP field name (letters, digits and {@code !#$%&'*+-.^_`|~}).
     *
     * @return the header's name; {@value #IDEMPOTENCY_KEY} by default
     */
    @Nonbinding
    String header() default IDEMPOTENCY_KEY;

    /**
     * Whether a request without the key is refused (400, the default) or runs without one, as the method would
     * without this annotation.
     *
     * @return whether the key is required
     */
    @Nonbinding
    boolean required() default true;

    /**
     * The namespace of the keys: the same key runs once per scope. Empty (the default) means the resource class's
     * fully qualified name. At most {@value io.github.txinbox.InboxLimits#MAX_SCOPE_BYTES} bytes in UTF-8. Markers of {@link io.github.txinbox.Inbox}
     * methods and of {@code @Idempotent} methods share the table; give them different scopes.
     *
     * @return the scope, or empty for the resource class's name
     */
    @Nonbinding
    String scope() default "";

    /**
     * Whether each authenticated caller has keys of its own. {@code false} (the default): the keys of a scope are
     * shared by every caller, and two clients that send the same key meet (the second gets 422, or, with the same
     * request, the first's stored response); choose it where every client makes its keys from a random UUID, or where
     * there are no separate callers. {@code true}: a key is the caller's own, as payment APIs keep them per account,
     * so that two callers' equal keys never meet and one caller's retry can never be answered with another's stored
     * response; choose it for an API that several clients or tenants call.
     *
     * <p>The caller is the principal of the request's Jakarta REST {@code SecurityContext} (the container's
     * authentication, or a filter of priority {@code Priorities.AUTHENTICATION} that sets its own), by its name. A
     * request without one is refused with 403 and the method does not run. The marker's scope is then the scope
     * followed by {@code ~} and the SHA-256 of the name in base64url (43 characters), so that the table holds no name:
     * the scope must leave {@value #PRINCIPAL_SUFFIX_LENGTH} bytes for it within
     * {@value io.github.txinbox.InboxSettings#SCOPE_BYTES}.
     *
     * @return whether keys are kept per caller
     */
    @Nonbinding
    boolean perPrincipal() default false;

    /** The bytes a scope of keys kept per caller takes beyond the scope: {@code ~} and 43 characters. */
    int PRINCIPAL_SUFFIX_LENGTH = 44;
}
