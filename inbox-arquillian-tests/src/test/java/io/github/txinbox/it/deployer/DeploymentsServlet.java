package io.github.txinbox.it.deployer;

import jakarta.servlet.annotation.WebServlet;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.File;
import java.io.IOException;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;

/**
 * Deploys and undeploys applications in the Payara Micro it runs in, through Payara Micro's own runtime API
 * ({@code fish.payara.micro.PayaraMicroRuntime}): {@code POST /deployments?name=N&file=F} deploys the archive at
 * {@code F} (a path on this host) as application {@code N} under context root {@code /N}; {@code DELETE
 * /deployments?name=N} undeploys it. A deployment Payara refuses answers 500; its cause is in the server's log. The one
 * class of the deployer application that the harness starts every shared Payara Micro with; it is reached on
 * 127.0.0.1 only.
 */
@WebServlet("/deployments")
public class DeploymentsServlet extends HttpServlet {

    private static final long serialVersionUID = 1L;

    @Override
    protected void doPost(HttpServletRequest request, HttpServletResponse response) throws IOException {
        String name = required(request, "name");
        File file = new File(required(request, "file"));
        if (!file.isFile()) {
            response.sendError(HttpServletResponse.SC_BAD_REQUEST, "No archive at " + file);
            return;
        }
        Object deployed = call("deploy", new Class<?>[] {String.class, String.class, File.class}, name, name, file);
        if (Boolean.TRUE.equals(deployed)) {
            response.getWriter().write("deployed " + name);
        } else {
            response.sendError(HttpServletResponse.SC_INTERNAL_SERVER_ERROR, "Payara Micro did not deploy " + name);
        }
    }

    @Override
    protected void doDelete(HttpServletRequest request, HttpServletResponse response) throws IOException {
        String name = required(request, "name");
        call("undeploy", new Class<?>[] {String.class}, name);
        response.getWriter().write("undeployed " + name);
    }

    private static String required(HttpServletRequest request, String parameter) {
        String value = request.getParameter(parameter);
        if (value == null || value.isBlank()) {
            throw new IllegalArgumentException("The parameter " + parameter + " is missing");
        }
        return value;
    }

    /** Calls a method of the running instance's {@code PayaraMicroRuntime}. */
    private static Object call(String method, Class<?>[] types, Object... arguments) {
        try {
            Class<?> micro = Class.forName("fish.payara.micro.PayaraMicro");
            Object instance = micro.getMethod("getInstance").invoke(null);
            Object runtime = micro.getMethod("getRuntime").invoke(instance);
            Method api = Class.forName("fish.payara.micro.PayaraMicroRuntime").getMethod(method, types);
            return api.invoke(runtime, arguments);
        } catch (InvocationTargetException e) {
            throw new IllegalStateException("PayaraMicroRuntime." + method + " failed", e.getCause());
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("This server has no PayaraMicroRuntime." + method, e);
        }
    }
}
