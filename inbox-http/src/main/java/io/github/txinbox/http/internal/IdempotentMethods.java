package io.github.txinbox.http.internal;

import java.lang.reflect.Method;

/**
 * Which resource methods {@code @Idempotent} was bound to when CDI deployed the application: the inbox's extension
 * answers, so that {@link IdempotencyFeature} prepares exactly the methods whose calls the interceptor will see.
 */
public interface IdempotentMethods {

    /**
     * Whether {@code @Idempotent} applies to a method of a resource class as CDI bound it.
     *
     * @param resourceClass the resource class
     * @param method        the resource method, as Jakarta REST names it (possibly an interface's)
     * @return whether the interceptor will apply its rules to calls of it
     */
    boolean bound(Class<?> resourceClass, Method method);
}
