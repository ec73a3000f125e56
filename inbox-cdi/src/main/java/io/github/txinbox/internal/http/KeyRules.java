package io.github.txinbox.internal.http;

/**
 * What {@link io.github.txinbox.Idempotent @Idempotent} means for one resource method, as the inbox's extension bound
 * it at deployment.
 *
 * @param description the bean class and method, as errors and logs name them
 * @param scope       the scope of the keys
 * @param header      the request header that carries the key
 * @param required    whether a request without the key is refused
 */
public record KeyRules(String description, String scope, String header, boolean required) {
}
