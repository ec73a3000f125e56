package io.github.txinbox.http.internal;

import io.github.txinbox.http.Idempotent;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Base64;

/**
 * What {@link io.github.txinbox.http.Idempotent @Idempotent} means for one resource method, as the inbox's extension bound
 * it at deployment.
 *
 * @param description  the bean class and method, as errors and logs name them
 * @param scope        the scope of the keys
 * @param header       the request header that carries the key
 * @param required     whether a request without the key is refused
 * @param perPrincipal whether each authenticated caller has keys of its own ({@link Idempotent#perPrincipal()})
 */
public record KeyRules(String description, String scope, String header, boolean required, boolean perPrincipal) {

    /**
     * The scope a caller's keys are stored under, where keys are kept per caller: the scope, {@code ~}, and the
     * SHA-256 of the caller's name (UTF-8) in base64url without padding. Always {@link Idempotent#PRINCIPAL_SUFFIX_LENGTH}
     * bytes longer than the scope, whatever the name; two names give two scopes, and the table holds neither.
     *
     * @param principal the caller's name, as its principal gives it
     * @return the scope of that caller's keys
     */
    public String scopeOf(String principal) {
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(principal.getBytes(StandardCharsets.UTF_8));
            return scope + '~' + Base64.getUrlEncoder().withoutPadding().encodeToString(digest);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("Every Java platform has SHA-256", e);
        }
    }

    /**
     * The longest scope this method stores keys under: the scope itself, or a caller's ({@link #scopeOf}), which are
     * all of one length.
     *
     * @return a scope of that length
     */
    public String longestScope() {
        return perPrincipal ? scopeOf("") : scope;
    }
}
