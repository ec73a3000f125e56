package io.github.txinbox.internal.startup;

import jakarta.enterprise.inject.Instance;
import jakarta.enterprise.inject.spi.CDI;
import jakarta.servlet.ServletContainerInitializer;
import jakarta.servlet.ServletContext;
import jakarta.servlet.ServletContextEvent;
import jakarta.servlet.ServletContextListener;
import java.util.Set;

/**
 * Checks the inbox table when a web module starts, in that module's environment, and lends the readiness check that
 * environment ({@link io.github.txinbox.internal.health.ComponentEnvironment#keepModuleContext()}). In an EAR with the
 * library in {@code lib/}, the container fires CDI's start-up event at the level of the EAR, where the library's beans
 * get no resources, so {@link StartupCheck} cannot check the table there; a web module's listeners run where they can.
 * Found by the servlet container through {@code META-INF/services}, in {@code WEB-INF/lib} and in an EAR's {@code lib/}
 * alike; where the start-up event already checked the table, this does nothing. It is the library's one use of the
 * Servlet API, and its one hook that runs in a web module's environment: Payara fires CDI's start-up event once for the
 * whole EAR, not once per web module.
 */
public class WebStartupCheck implements ServletContainerInitializer {

    @Override
    public void onStartup(Set<Class<?>> classes, ServletContext context) {
        context.addListener(new Listener());
    }

    /** Checks the table, and lends the module's context, when the web module's context is initialized. */
    static final class Listener implements ServletContextListener {

        @Override
        public void contextInitialized(ServletContextEvent event) {
            Instance<StartupCheck> check;
            try {
                check = CDI.current().select(StartupCheck.class);
            } catch (IllegalStateException e) {
                // A web module of the EAR without CDI: nothing of the inbox runs in it.
                return;
            }
            if (check.isResolvable()) {
                check.get().webModuleStarted();
            }
        }
    }
}
