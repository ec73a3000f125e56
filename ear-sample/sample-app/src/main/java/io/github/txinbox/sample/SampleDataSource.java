package io.github.txinbox.sample;

import jakarta.annotation.sql.DataSourceDefinition;
import jakarta.ejb.Singleton;

/**
 * The sample's XA datasource: PostgreSQL, joined with the broker in one XA transaction per message. The launcher
 * passes the connection as the system properties {@code sample.db.url}, {@code sample.db.user} and
 * {@code sample.db.password}.
 */
@DataSourceDefinition(
        name = "java:app/jdbc/sample",
        className = "org.postgresql.xa.PGXADataSource",
        url = "${MPCONFIG=sample.db.url}",
        user = "${MPCONFIG=sample.db.user}",
        password = "${MPCONFIG=sample.db.password}",
        minPoolSize = 2,
        maxPoolSize = 32)
@Singleton
public class SampleDataSource {
}
