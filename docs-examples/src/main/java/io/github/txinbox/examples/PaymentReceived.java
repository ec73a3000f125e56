package io.github.txinbox.examples;

/**
 * A payment the application received, as its own message type (not a JMS message).
 *
 * @param paymentId the payment's id, which the payment provider sets and resends unchanged
 * @param orderId   the order it pays
 * @param amount    the amount, in cents
 */
public record PaymentReceived(String paymentId, String orderId, long amount) {
}
