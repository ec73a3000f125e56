package io.github.txinbox.it.app;

import jakarta.annotation.sql.DataSourceDefinition;
import jakarta.enterprise.context.ApplicationScoped;

/**
 * The deployment's XA datasource, pointing at the server chosen for this test run. The container resolves the
 * {@code MPCONFIG} expressions from the {@code inbox.db.*} system properties the harness passes to Payara Micro.
 */
@DataSourceDefinition(
        name = "java:app/jdbc/inbox-it",
        className = "org.postgresql.xa.PGXADataSource",
        url = "${MPCONFIG=inbox.db.url}",
        user = "${MPCONFIG=inbox.db.user}",
        password = "${MPCONFIG=inbox.db.password}",
        properties = {"currentSchema=" + TestDatabase.SCHEMA, "ApplicationName=txinbox-it-container"},
        minPoolSize = 1,
        maxPoolSize = 16)
@ApplicationScoped
public class TestDataSourceDefinition {
}
