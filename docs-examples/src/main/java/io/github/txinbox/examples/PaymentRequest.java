package io.github.txinbox.examples;

import java.math.BigDecimal;

/**
 * What a client asks {@link PaymentResource} to pay.
 *
 * @param amount the amount
 */
public record PaymentRequest(BigDecimal amount) {
}
