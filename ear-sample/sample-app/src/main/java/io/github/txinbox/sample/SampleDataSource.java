package io.github.txinbox.sample;

import jakarta.annotation.sql.DataSourceDefinition;
import jakarta.ejb.Singleton;

/**
 * The sample's datasource: PostgreSQL, read from MicroProfile Config (the launcher passes them as the environment
 * variables {@code SAMPLE_DB_URL}, {@code SAMPLE_DB_USER}, {@code SAMPLE_DB_PASSWORD} and
 * {@code SAMPLE_DB_DATASOURCE_CLASS}).
 *
 * <p>By default a non-XA {@code org.postgresql.ds.PGSimpleDataSource}: the database then commits as the one
 * non-XA resource of the MDB's transaction, beside the broker's XA branch, and works on a stock PostgreSQL
 * ({@code max_prepared_transactions = 0}). With {@code org.postgresql.xa.PGXADataSource} both join one XA
 * transaction; PostgreSQL then needs {@code max_prepared_transactions > 0}.
 */
@DataSourceDefinition(
        name = "java:app/jdbc/sample",
        className = "${MPCONFIG=sample.db.datasource-class}",
        url = "${MPCONFIG=sample.db.url}",
        user = "${MPCONFIG=sample.db.user}",
        password = "${MPCONFIG=sample.db.password}",
        minPoolSize = 2,
        maxPoolSize = 32)
@Singleton
public class SampleDataSource {
}
