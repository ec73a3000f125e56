package io.github.txinbox.it.messaging;

import io.github.txinbox.MessageIdResolver;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.interceptor.InvocationContext;

/** Takes the message id from the first parameter of the intercepted method: an order id. */
@ApplicationScoped
public class OrderIdResolver implements MessageIdResolver {

    @Override
    public String messageId(InvocationContext invocation) {
        return (String) invocation.getParameters()[0];
    }
}
