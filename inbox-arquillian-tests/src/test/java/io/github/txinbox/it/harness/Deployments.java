package io.github.txinbox.it.harness;

import io.github.txinbox.it.app.TestDatabase;
import java.io.File;
import java.util.Arrays;
import org.jboss.shrinkwrap.api.ShrinkWrap;
import org.jboss.shrinkwrap.api.spec.WebArchive;

/**
 * Builds test deployments: a WAR with the test class (and its nested classes), the shared test application in
 * {@link io.github.txinbox.it.app}, the test persistence unit, and in WEB-INF/lib the jars the POM puts in runtime
 * scope (inbox-cdi as built by this reactor, Hibernate, the PostgreSQL driver; no Hibernate on the EclipseLink
 * leg), copied there by the build.
 */
public final class Deployments {

    private Deployments() {
    }

    /**
     * Builds the deployment of one test class.
     *
     * @param testClass the test class, added with its nested classes
     * @param extra     further classes this deployment needs
     * @return the WAR
     */
    public static WebArchive war(Class<?> testClass, Class<?>... extra) {
        return ShrinkWrap.create(WebArchive.class, testClass.getSimpleName() + ".war")
                .addClass(testClass)
                .addClasses(extra)
                .addPackage(TestDatabase.class.getPackage())
                .addAsResource(persistenceXml("test-persistence.xml"), "META-INF/persistence.xml")
                .addAsWebInfResource("test-beans.xml", "beans.xml")
                .addAsLibraries(libraries("txinbox.it.deploymentLibs"));
    }

    /**
     * Replaces a deployment's persistence.xml.
     *
     * @param war      the deployment
     * @param resource the test resource to use instead of test-persistence.xml
     * @return the same deployment
     */
    public static WebArchive withPersistenceXml(WebArchive war, String resource) {
        war.delete("WEB-INF/classes/META-INF/persistence.xml");
        return war.addAsResource(persistenceXml(resource), "META-INF/persistence.xml");
    }

    /**
     * Returns the persistence.xml resource for the JPA provider of this run (the system property
     * {@code txinbox.it.jpa}): the Hibernate one as named, or its {@code eclipselink-} twin, which names no provider
     * (Payara's default, EclipseLink, then serves it) and has no Hibernate settings.
     *
     * @param resource the test resource written for Hibernate
     * @return the resource to deploy
     */
    public static String persistenceXml(String resource) {
        return "eclipselink".equals(System.getProperty("txinbox.it.jpa")) ? "eclipselink-" + resource : resource;
    }

    /**
     * Adds a second-level cache for Hibernate (hibernate-jcache with Caffeine) to a deployment's WEB-INF/lib.
     *
     * @param war the deployment
     * @return the same deployment
     */
    public static WebArchive withSecondLevelCache(WebArchive war) {
        return war.addAsLibraries(libraries("txinbox.it.cacheLibs"));
    }

    private static File[] libraries(String directoryProperty) {
        String directory = System.getProperty(directoryProperty);
        if (directory == null) {
            throw new IllegalStateException(directoryProperty + " is not set: run the tests through Maven "
                    + "(mvn verify), which copies the deployment's libraries");
        }
        File[] jars = new File(directory).listFiles((dir, name) -> name.endsWith(".jar"));
        if (jars == null || jars.length == 0) {
            throw new IllegalStateException("No libraries in " + directory + ": run the tests through Maven");
        }
        Arrays.sort(jars);
        return jars;
    }
}
