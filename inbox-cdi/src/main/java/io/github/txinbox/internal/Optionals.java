package io.github.txinbox.internal;

import java.util.Optional;
import java.util.function.Function;

/**
 * Finds the optional MicroProfile APIs. The classes that use them ({@link MicroProfileConfig}, {@link InboxMetrics})
 * are loaded only after a check here found the API, so the library also deploys on servers without them.
 */
public final class Optionals {

    static final String CONFIG_PROVIDER = "org.eclipse.microprofile.config.ConfigProvider";
    static final String METRIC_REGISTRY = "org.eclipse.microprofile.metrics.MetricRegistry";

    private Optionals() {
    }

    /**
     * Whether a class is visible to a class loader, without initialising it.
     *
     * @param className the class's name
     * @param loader    the class loader
     * @return whether the class loads
     */
    static boolean present(String className, ClassLoader loader) {
        try {
            Class.forName(className, false, loader);
            return true;
        } catch (ClassNotFoundException | LinkageError e) {
            return false;
        }
    }

    /**
     * Returns where the settings come from: MicroProfile Config (which includes system properties and environment
     * variables) where the library sees it, else system properties alone.
     *
     * @param application the application's class loader, whose configuration is read
     * @return the value of each property, empty when it is not set
     */
    static Function<String, Optional<String>> settingsSource(ClassLoader application) {
        if (present(CONFIG_PROVIDER, Optionals.class.getClassLoader())) {
            return MicroProfileConfig.of(application);
        }
        return property -> Optional.ofNullable(System.getProperty(property));
    }
}
