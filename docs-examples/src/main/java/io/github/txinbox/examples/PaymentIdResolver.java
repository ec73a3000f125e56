package io.github.txinbox.examples;

import io.github.txinbox.MessageIdResolver;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.interceptor.InvocationContext;

// tag::resolver[]
@ApplicationScoped
public class PaymentIdResolver implements MessageIdResolver {

    @Override
    public String messageId(InvocationContext invocation) {
        PaymentReceived payment = (PaymentReceived) invocation.getParameters()[0];
        return payment == null ? null : payment.paymentId(); // null or blank: MissingMessageIdException
    }
}
// end::resolver[]
