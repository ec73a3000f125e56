package io.github.txinbox.internal.settings;

import io.github.txinbox.InboxConfigurationException;
import java.io.IOException;
import java.io.InputStream;
import java.net.URL;
import java.util.Enumeration;
import java.util.List;
import java.util.Optional;
import java.util.Properties;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Function;

/**
 * Finds the optional MicroProfile APIs. The classes that use them ({@link MicroProfileConfig},
 * {@link io.github.txinbox.internal.metrics.InboxMetrics}, {@link io.github.txinbox.internal.health.InboxReadiness})
 * are loaded only after a check here found the API, so the library also deploys on servers without them.
 */
public final class MicroProfileApis {

    static final String CONFIG_PROVIDER = "org.eclipse.microprofile.config.ConfigProvider";
    public static final String METRIC_REGISTRY = "org.eclipse.microprofile.metrics.MetricRegistry";
    public static final String HEALTH_CHECK = "org.eclipse.microprofile.health.HealthCheck";

    /** Where an application keeps its MicroProfile Config properties. */
    static final String CONFIG_FILE = "META-INF/microprofile-config.properties";

    private static final String SETTINGS_PREFIX = "txinbox.";

    private MicroProfileApis() {
    }

    /**
     * Whether a class is visible to a class loader, without initialising it.
     *
     * @param className the class's name
     * @param loader    the class loader
     * @return whether the class loads
     */
    public static boolean present(String className, ClassLoader loader) {
        try {
            Class.forName(className, false, loader);
            return true;
        } catch (ClassNotFoundException | LinkageError e) {
            return false;
        }
    }

    /**
     * Returns where the settings come from: MicroProfile Config (which includes system properties and environment
     * variables) where the library sees it, else system properties alone. Without MicroProfile Config, settings in
     * the application's {@value #CONFIG_FILE} would be silently ignored, so they fail the start instead.
     *
     * @param application the application's class loader, whose configuration is read
     * @return the value of each property, empty when it is not set
     * @throws InboxConfigurationException when the server has no MicroProfile Config and the application's
     *                                     {@value #CONFIG_FILE} sets {@code txinbox.*} properties
     */
    static Function<String, Optional<String>> settingsSource(ClassLoader application) {
        if (present(CONFIG_PROVIDER, MicroProfileApis.class.getClassLoader())) {
            return MicroProfileConfig.of(application);
        }
        List<String> unread = settingsInConfigFiles(application);
        if (!unread.isEmpty()) {
            throw new InboxConfigurationException(CONFIG_FILE + " sets " + String.join(", ", unread) + ", but this "
                    + "server gives the application no MicroProfile Config (" + CONFIG_PROVIDER + " is not visible), "
                    + "so nothing would read it. Enable MicroProfile Config on the server (on Open Liberty the "
                    + "mpConfig feature), or set these as system properties");
        }
        return property -> Optional.ofNullable(System.getProperty(property));
    }

    /**
     * Lists the library's settings ({@code txinbox.*}) in the application's MicroProfile Config files.
     *
     * @param application the application's class loader
     * @return the properties' names, sorted; empty when there are none
     * @throws InboxConfigurationException when a file cannot be read
     */
    static List<String> settingsInConfigFiles(ClassLoader application) {
        Set<String> names = new TreeSet<>();
        try {
            Enumeration<URL> files = application.getResources(CONFIG_FILE);
            while (files.hasMoreElements()) {
                URL file = files.nextElement();
                Properties properties = new Properties();
                try (InputStream in = file.openStream()) {
                    properties.load(in);
                }
                properties.stringPropertyNames().stream().filter(name -> name.startsWith(SETTINGS_PREFIX))
                        .forEach(names::add);
            }
        } catch (IOException e) {
            throw new InboxConfigurationException("Could not read the application's " + CONFIG_FILE + ": " + e);
        }
        return List.copyOf(names);
    }
}
