package io.github.txinbox.internal.settings;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.txinbox.InboxConfigurationException;
import io.github.txinbox.internal.binding.InboxExtension;
import io.github.txinbox.internal.binding.InboxInterceptor;
import io.github.txinbox.internal.health.ComponentEnvironment;
import io.github.txinbox.internal.health.HealthProbe;
import io.github.txinbox.internal.health.InboxReadiness;
import io.github.txinbox.internal.health.TableVerifier;
import io.github.txinbox.internal.metrics.InboxMetrics;
import io.github.txinbox.internal.startup.StartupCheck;
import jakarta.enterprise.inject.spi.BeforeBeanDiscovery;
import java.io.IOException;
import java.io.InputStream;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The library on a server without MicroProfile: its classes loaded by a class loader that hides every
 * {@code org.eclipse.microprofile} class, as such a server would.
 */
class MicroProfileApisTest {

    /** Defines the library's classes itself, so that they resolve their references through it. */
    static final class WithoutMicroProfile extends ClassLoader {

        WithoutMicroProfile() {
            super(MicroProfileApisTest.class.getClassLoader());
        }

        @Override
        protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
            if (name.startsWith("org.eclipse.microprofile.")) {
                throw new ClassNotFoundException(name + " (hidden)");
            }
            if (!name.startsWith("io.github.txinbox.")) {
                return super.loadClass(name, resolve);
            }
            synchronized (getClassLoadingLock(name)) {
                Class<?> loaded = findLoadedClass(name);
                if (loaded == null) {
                    try (InputStream in = getParent().getResourceAsStream(name.replace('.', '/') + ".class")) {
                        if (in == null) {
                            throw new ClassNotFoundException(name);
                        }
                        byte[] bytes = in.readAllBytes();
                        loaded = defineClass(name, bytes, 0, bytes.length);
                    } catch (IOException e) {
                        throw new ClassNotFoundException(name, e);
                    }
                }
                return loaded;
            }
        }
    }

    /** Calls the extension's start of discovery and lists the classes it added as beans. */
    private static List<Class<?>> typesAddedAtDiscovery(ClassLoader loader) throws Exception {
        List<Class<?>> added = new ArrayList<>();
        Object configurator = Proxy.newProxyInstance(loader,
                new Class<?>[] {jakarta.enterprise.inject.spi.configurator.AnnotatedTypeConfigurator.class},
                (proxy, method, args) -> proxy);
        BeforeBeanDiscovery event = (BeforeBeanDiscovery) Proxy.newProxyInstance(loader,
                new Class<?>[] {BeforeBeanDiscovery.class}, (proxy, method, args) -> {
                    if (method.getName().equals("addAnnotatedType") && args[0] instanceof Class<?> type) {
                        added.add(type);
                        return configurator;
                    }
                    throw new UnsupportedOperationException(method.getName());
                });
        Class<?> extensionClass = loader.loadClass(InboxExtension.class.getName());
        Method addOptionalBeans = extensionClass.getDeclaredMethod("addOptionalBeans", BeforeBeanDiscovery.class);
        addOptionalBeans.setAccessible(true);
        addOptionalBeans.invoke(extensionClass.getConstructor().newInstance(), event);
        return added;
    }

    @Test
    void withMetricsAndHealthTheExtensionAddsTheirBeans() throws Exception {
        assertEquals(List.of(InboxMetrics.class, InboxReadiness.class),
                typesAddedAtDiscovery(MicroProfileApisTest.class.getClassLoader()));
    }

    @Test
    void withoutMicroProfileTheExtensionAddsNothing() throws Exception {
        assertEquals(List.of(), typesAddedAtDiscovery(new WithoutMicroProfile()));
    }

    @Test
    void theCoreClassesLinkWithoutMicroProfile() throws Exception {
        ClassLoader loader = new WithoutMicroProfile();
        for (Class<?> type : List.of(InboxInterceptor.class, InboxExtension.class, StartupCheck.class,
                SettingsProducer.class, SettingsReader.class, MicroProfileApis.class, TableVerifier.class, HealthProbe.class,
                ComponentEnvironment.class,
                io.github.txinbox.InboxRepository.class, io.github.txinbox.InboxSettings.class)) {
            Class<?> loaded = loader.loadClass(type.getName());
            assertNotEquals(type, loaded, "loaded by the hiding class loader");
            // Resolves every type in the fields' and methods' signatures.
            loaded.getDeclaredFields();
            loaded.getDeclaredMethods();
            loaded.getDeclaredConstructors();
        }
        // The check can fail: the metrics bean and the readiness check do need MicroProfile.
        Class<?> metrics = loader.loadClass(InboxMetrics.class.getName());
        assertThrows(NoClassDefFoundError.class, metrics::getDeclaredFields);
        assertThrows(NoClassDefFoundError.class, () -> loader.loadClass(InboxReadiness.class.getName()));
    }

    @Test
    void withoutConfigTheSettingsComeFromSystemProperties() throws Exception {
        ClassLoader loader = new WithoutMicroProfile();
        Class<?> optionals = loader.loadClass(MicroProfileApis.class.getName());
        Method source = optionals.getDeclaredMethod("settingsSource", ClassLoader.class);
        source.setAccessible(true);
        String property = "txinbox.test.optionals." + System.nanoTime();
        System.setProperty(property, "from a system property");
        try {
            @SuppressWarnings("unchecked")
            Function<String, Optional<String>> values = (Function<String, Optional<String>>) source.invoke(null, loader);
            assertEquals(Optional.of("from a system property"), values.apply(property));
            assertEquals(Optional.empty(), values.apply(property + ".unset"));
        } finally {
            System.clearProperty(property);
        }
        assertTrue(MicroProfileApis.present(MicroProfileApis.CONFIG_PROVIDER, MicroProfileApisTest.class.getClassLoader()),
                "MicroProfile Config is on the test class path");
    }

    /** A class loader that sees only a MicroProfile Config file with the given text. */
    private static ClassLoader applicationWithConfigFile(Path directory, String text) throws IOException {
        Path file = directory.resolve(MicroProfileApis.CONFIG_FILE);
        Files.createDirectories(file.getParent());
        Files.writeString(file, text);
        return new URLClassLoader(new URL[] {directory.toUri().toURL()}, null);
    }

    @Test
    void theLibrarysSettingsInTheConfigFileAreListedSorted(@TempDir Path directory) throws IOException {
        ClassLoader application = applicationWithConfigFile(directory,
                "txinbox.table=app.inbox\nother.setting=1\ntxinbox.key=orderId\n");
        assertEquals(List.of("txinbox.key", "txinbox.table"), MicroProfileApis.settingsInConfigFiles(application));
        assertEquals(List.of(), MicroProfileApis.settingsInConfigFiles(
                applicationWithConfigFile(directory.resolve("other"), "other.setting=1\n")));
    }

    @Test
    void withoutConfigASettingInTheConfigFileFailsTheStartInsteadOfBeingIgnored(@TempDir Path directory)
            throws Exception {
        ClassLoader application = applicationWithConfigFile(directory, "txinbox.table=app.inbox\n");
        Method source = new WithoutMicroProfile().loadClass(MicroProfileApis.class.getName())
                .getDeclaredMethod("settingsSource", ClassLoader.class);
        source.setAccessible(true);
        InvocationTargetException thrown = assertThrows(InvocationTargetException.class,
                () -> source.invoke(null, application));
        // Loaded by the hiding class loader, so a class of its own: compared by name.
        assertEquals(InboxConfigurationException.class.getName(), thrown.getCause().getClass().getName());
        assertTrue(thrown.getCause().getMessage().startsWith(MicroProfileApis.CONFIG_FILE + " sets txinbox.table, but this "
                + "server gives the application no MicroProfile Config"), thrown.getCause().getMessage());
    }
}
