package io.github.txinbox.bench;

import io.github.txinbox.it.harness.Deployments;
import org.jboss.shrinkwrap.api.asset.StringAsset;
import org.jboss.shrinkwrap.api.spec.WebArchive;

/** Builds the benchmarks' deployments. */
public final class Bench {

    private Bench() {
    }

    /**
     * The deployment of one benchmark: the test application with the benchmarks' lean persistence unit.
     *
     * @param benchmark the benchmark class
     * @param extra     further classes
     * @return the WAR
     */
    public static WebArchive war(Class<?> benchmark, Class<?>... extra) {
        Results.prepare();
        WebArchive war = Deployments.war(benchmark, extra).addClasses(Results.class, Results.Rounds.class, Bench.class)
                .addPackage(io.github.txinbox.bench.naive.NaiveMarker.class.getPackage());
        return Deployments.withPersistenceXml(war, "bench-persistence.xml");
    }

    /**
     * Points the inbox at a table of the benchmark's own, through the application's MicroProfile Config.
     *
     * @param war   the deployment
     * @param table the table, schema-qualified
     * @return the same deployment
     */
    public static WebArchive withTable(WebArchive war, String table) {
        return war.addAsResource(new StringAsset("txinbox.table=" + table + "\n"),
                "META-INF/microprofile-config.properties");
    }
}
