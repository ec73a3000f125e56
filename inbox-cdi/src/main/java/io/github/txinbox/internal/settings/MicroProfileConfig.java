package io.github.txinbox.internal.settings;

import java.util.Optional;
import java.util.function.Function;
import org.eclipse.microprofile.config.Config;
import org.eclipse.microprofile.config.ConfigProvider;

/** Reads settings through MicroProfile Config. Loaded only where {@link MicroProfileApis} found it. */
final class MicroProfileConfig {

    private MicroProfileConfig() {
    }

    static Function<String, Optional<String>> of(ClassLoader application) {
        Config config = ConfigProvider.getConfig(application);
        return property -> config.getOptionalValue(property, String.class);
    }
}
