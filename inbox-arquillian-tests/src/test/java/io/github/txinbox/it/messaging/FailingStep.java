package io.github.txinbox.it.messaging;

import jakarta.ejb.Stateless;

/**
 * A step a handler calls in its own transaction ({@code REQUIRED}), which fails: its container marks the transaction
 * for rollback and throws an {@code EJBException} to the handler, whatever the handler then does with it.
 */
@Stateless
public class FailingStep {

    /**
     * Fails.
     *
     * @param orderId the order the step was for
     */
    public void fail(String orderId) {
        throw new IllegalStateException("the nested step failed for " + orderId);
    }
}
