package io.github.txinbox.sample;

import jakarta.annotation.Priority;
import jakarta.inject.Inject;
import jakarta.interceptor.AroundInvoke;
import jakarta.interceptor.Interceptor;
import jakarta.interceptor.InvocationContext;
import jakarta.jms.Message;

/** Runs outside the inbox's interceptor (a lower priority), so it sees duplicates too. */
@Counted
@Interceptor
@Priority(Interceptor.Priority.LIBRARY_BEFORE)
public class DeliveryCounter {

    @Inject
    Counters counters;

    @AroundInvoke
    public Object count(InvocationContext invocation) throws Exception {
        Message message = (Message) invocation.getParameters()[0];
        counters.delivered(message.getStringProperty(OrderPlacedHandler.BATCH),
                invocation.getMethod().getDeclaringClass().getSimpleName(), message.getJMSRedelivered());
        return invocation.proceed();
    }
}
