package io.github.txinbox.bench;

import io.github.txinbox.InboxTable;
import io.github.txinbox.it.app.TestDatabase;
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
        WebArchive war = Deployments.war(benchmark, extra)
                .addClasses(Results.class, Results.Rounds.class, Bench.class, Statements.class, Statements.Cost.class)
                .addPackage(io.github.txinbox.bench.naive.NaiveMarker.class.getPackage());
        return Deployments.withPersistenceXml(war, "bench-persistence.xml");
    }

    /**
     * The deployment of a benchmark with an inbox table of its own: creates the table afresh (dropping any earlier
     * one) and points the inbox at it through the application's MicroProfile Config.
     *
     * @param benchmark the benchmark class
     * @param table     the table
     * @return the WAR
     */
    public static WebArchive warWithTable(Class<?> benchmark, InboxTable table) {
        WebArchive war = war(benchmark);
        TestDatabase.update("DROP TABLE IF EXISTS " + table.quotedName());
        TestDatabase.update(TestDatabase.tableSql(table));
        return war.addAsResource(new StringAsset("txinbox.table=" + table.qualifiedName() + "\n"),
                "META-INF/microprofile-config.properties");
    }
}
