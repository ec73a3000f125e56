package io.github.txinbox.it.app;

import jakarta.annotation.sql.DataSourceDefinition;
import jakarta.enterprise.context.ApplicationScoped;

/**
 * The deployment's datasource on the non-XA leg ({@code -Dit.datasource=local}): a plain {@code PGSimpleDataSource},
 * which Payara enlists as the one one-phase resource of a transaction beside the broker's XA branch (its last agent
 * optimization), under the same JNDI name as {@link TestDataSourceDefinition}. The deployment carries one of the two
 * ({@link io.github.txinbox.it.harness.Deployments#war}).
 */
@DataSourceDefinition(
        name = "java:app/jdbc/inbox-it",
        className = "org.postgresql.ds.PGSimpleDataSource",
        url = "${MPCONFIG=inbox.db.url}",
        user = "${MPCONFIG=inbox.db.user}",
        password = "${MPCONFIG=inbox.db.password}",
        properties = {"currentSchema=" + TestDatabase.SCHEMA, "ApplicationName=txinbox-it-container"},
        minPoolSize = 1,
        maxPoolSize = 16)
@ApplicationScoped
public class NonXaDataSourceDefinition {
}
