package io.github.txinbox.spi;

import java.util.Optional;

/**
 * The application's configuration as the core reads its own settings: MicroProfile Config where the library sees it,
 * else system properties. A module reads its own {@code txinbox.*} properties through it, so that they come from where
 * the core's come from. Inject it; the core provides the one bean of this type.
 */
public interface SettingSource {

    /**
     * Returns a property's value as configured, trimmed.
     *
     * @param property the property's name, such as {@code txinbox.http.max-response-bytes}
     * @return the value; empty when the property is not set or blank
     * @throws io.github.txinbox.InboxConfigurationException when the configuration cannot be read where it is (the
     *                                                       application's MicroProfile Config file on a server without
     *                                                       MicroProfile Config)
     */
    Optional<String> value(String property);
}
