package io.github.txinbox.internal.fakes;

import static org.junit.jupiter.api.Assertions.assertFalse;

import jakarta.interceptor.InvocationContext;
import java.lang.reflect.Constructor;
import java.lang.reflect.Method;
import java.util.HashMap;
import java.util.Map;

/** An invocation of one method with one parameter, whose body is the test's; it may proceed once. */
public final class TestInvocation implements InvocationContext {

    /**
     * The method, as the interceptor's {@code proceed} reaches it.
     */
    @FunctionalInterface
    public interface Body {

        /**
         * Runs the method.
         *
         * @return what it returns
         * @throws Exception what it throws
         */
        Object run() throws Exception;
    }

    private final Map<String, Object> contextData = new HashMap<>();
    private final Method method;
    private final Body body;
    private Object[] parameters;
    private boolean proceeded;

    /**
     * An invocation not yet proceeded.
     *
     * @param method    the method invoked, whose annotations an interceptor may read
     * @param parameter its one parameter
     * @param body      what the method does
     */
    public TestInvocation(Method method, Object parameter, Body body) {
        this.method = method;
        this.parameters = new Object[] {parameter};
        this.body = body;
    }

    /**
     * Returns whether the method ran.
     *
     * @return whether {@link #proceed} was called
     */
    public boolean proceeded() {
        return proceeded;
    }

    @Override
    public Object proceed() throws Exception {
        assertFalse(proceeded, "proceeded twice");
        proceeded = true;
        return body.run();
    }

    @Override
    public Object getTarget() {
        return this;
    }

    @Override
    public Object getTimer() {
        return null;
    }

    @Override
    public Method getMethod() {
        return method;
    }

    @Override
    public Constructor<?> getConstructor() {
        return null;
    }

    @Override
    public Object[] getParameters() {
        return parameters;
    }

    @Override
    public void setParameters(Object[] params) {
        parameters = params;
    }

    @Override
    public Map<String, Object> getContextData() {
        return contextData;
    }
}
