package io.github.txinbox.sample;

import jakarta.annotation.sql.DataSourceDefinition;
import jakarta.ejb.Singleton;

/**
 * The sample's datasource: PostgreSQL, read from MicroProfile Config (the launcher passes them as the environment
 * variables {@code SAMPLE_DB_URL}, {@code SAMPLE_DB_USER}, {@code SAMPLE_DB_PASSWORD} and
 * {@code SAMPLE_DB_DATASOURCE_CLASS}).
 *
 * <p>By default a non-XA {@code org.postgresql.ds.PGSimpleDataSource}: the only resource of
 * {@link OrderPlacedHandler}'s own transaction, which works on a stock PostgreSQL
 * ({@code max_prepared_transactions = 0}). With XA, {@code org.postgresql.xa.PGXADataSource}: the database and the
 * broker join {@link XaOrderPlacedListener}'s transaction; PostgreSQL then needs
 * {@code max_prepared_transactions > 0}.
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
