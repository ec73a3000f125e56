package io.github.txinbox.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.txinbox.InboxSettings;
import io.github.txinbox.InboxTable;
import io.github.txinbox.it.app.TestDatabase;
import io.github.txinbox.it.harness.Await;
import io.github.txinbox.it.harness.Deployments;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Produces;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.URL;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.sql.Connection;
import java.sql.Statement;
import java.time.Duration;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.container.test.api.RunAsClient;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.arquillian.test.api.ArquillianResource;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The inbox's readiness check, seen through Payara's MicroProfile Health endpoint ({@code /health/ready}) as a load
 * balancer or an orchestrator sees it: ready while the table fits; not ready while the table is missing or unfit or
 * the database refuses connections, and ready again once that is over; a transaction left prepared in the database
 * reported by its gid.
 */
@ExtendWith(ArquillianExtension.class)
@RunAsClient
class InboxHealthIT {

    /** The table of this deployment alone, which the tests take away and damage (PostgresSession creates it). */
    private static final String TABLE = TestDatabase.CUSTOM_SCHEMA + ".health";

    @ApplicationScoped
    static class HealthConfiguration {

        @Produces
        InboxTable inboxTable() {
            return InboxTable.of(TABLE);
        }
    }

    @Deployment(testable = false)
    static WebArchive deployment() {
        return Deployments.withSettings(Deployments.war(InboxHealthIT.class),
                InboxSettings.PREPARED_TRANSACTION_AGE + "=PT1S");
    }

    /** The answer of the readiness endpoint, and the inbox's check in it. */
    private record Readiness(int status, String body) {

        String check() {
            Matcher check = Pattern.compile("\\{[^{}]*\"name\"\\s*:\\s*\"txinbox\"[^{}]*\"data\"\\s*:\\s*\\{[^{}]*}[^{}]*}"
                    + "|\\{[^{}]*\"data\"\\s*:\\s*\\{[^{}]*}[^{}]*\"name\"\\s*:\\s*\"txinbox\"[^{}]*}").matcher(body);
            assertTrue(check.find(), "no check named txinbox in " + body);
            return check.group();
        }

        String value(String name) {
            String value = find(name);
            assertTrue(value != null, "no " + name + " in " + body);
            return value;
        }

        /** A value of the check or its data, a JSON string unescaped; null when there is none. */
        String find(String name) {
            Matcher value = Pattern.compile("\"" + name + "\"\\s*:\\s*(\"((?:[^\"\\\\]|\\\\.)*)\"|[^,}\\s]+)")
                    .matcher(check());
            if (!value.find()) {
                return null;
            }
            return value.group(2) != null ? value.group(2).replaceAll("\\\\(.)", "$1") : value.group(1);
        }

        boolean up() {
            return status == 200 && value("status").equals("UP");
        }
    }

    private static Readiness ready(URL application) {
        URI uri = URI.create(application.toString()).resolve("/health/ready");
        try {
            HttpResponse<String> response = HttpClient.newHttpClient().send(HttpRequest.newBuilder(uri).build(),
                    HttpResponse.BodyHandlers.ofString());
            return new Readiness(response.statusCode(), response.body());
        } catch (IOException e) {
            throw new UncheckedIOException(uri + " could not be read", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    private static void awaitReady(URL application) throws Exception {
        Await.until(Duration.ofSeconds(30), "the inbox to be ready again", () -> ready(application).up());
    }

    @Test
    void readyWhileTheTableFits(@ArquillianResource URL application) throws Exception {
        Readiness readiness = ready(application);
        assertEquals(200, readiness.status(), readiness.body());
        assertEquals("UP", readiness.value("status"));
        assertEquals(TABLE, readiness.value("table"));
        assertEquals("PT1S", readiness.value("preparedTransactionAge"));
    }

    @Test
    void notReadyWhileTheTableIsMissing(@ArquillianResource URL application) throws Exception {
        TestDatabase.update("ALTER TABLE " + TABLE + " RENAME TO health_away");
        try {
            Readiness readiness = ready(application);
            assertEquals(503, readiness.status(), readiness.body());
            assertEquals("DOWN", readiness.value("status"));
            assertTrue(readiness.value("error").endsWith("will not do: it does not exist"), readiness.body());
        } finally {
            TestDatabase.update("ALTER TABLE " + TestDatabase.CUSTOM_SCHEMA + ".health_away RENAME TO health");
        }
        awaitReady(application);
    }

    @Test
    void notReadyWhileTheTableHasNoPrimaryKey(@ArquillianResource URL application) throws Exception {
        TestDatabase.update("ALTER TABLE " + TABLE + " DROP CONSTRAINT health_pkey");
        try {
            Readiness readiness = ready(application);
            assertEquals(503, readiness.status(), readiness.body());
            assertTrue(readiness.value("error").contains("it has no primary key"), readiness.body());
        } finally {
            TestDatabase.update("ALTER TABLE " + TABLE + " ADD PRIMARY KEY (scope, message_id)");
        }
        awaitReady(application);
    }

    @Test
    void notReadyWhileTheDatabaseRefusesConnections(@ArquillianResource URL application) throws Exception {
        assertTrue(ready(application).up());
        String database;
        try (Connection connection = TestDatabase.connect()) {
            database = connection.getCatalog();
        }
        // From another database, as PostgreSQL requires: the inbox's database refuses new connections, and every
        // session it has, the server's pooled connections included, is ended.
        try (Connection admin = TestDatabase.connectTo("template1"); Statement statement = admin.createStatement()) {
            statement.execute("ALTER DATABASE " + database + " ALLOW_CONNECTIONS false");
            try {
                statement.execute("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = '"
                        + database + "'");
                Readiness readiness = ready(application);
                assertEquals(503, readiness.status(), readiness.body());
                assertTrue(readiness.value("error").startsWith("the database could not be reached: "),
                        readiness.body());
            } finally {
                statement.execute("ALTER DATABASE " + database + " ALLOW_CONNECTIONS true");
            }
        }
        awaitReady(application);
    }

    @Test
    @Tag("xa") // PostgreSQL prepares transactions only with max_prepared_transactions > 0, as XA needs
    void reportsATransactionLeftPreparedByItsGid(@ArquillianResource URL application) throws Exception {
        String gid = "txinbox-health-" + UUID.randomUUID();
        try (Connection connection = TestDatabase.connect(); Statement statement = connection.createStatement()) {
            statement.execute("BEGIN");
            statement.execute("INSERT INTO " + TABLE + " (scope, message_id) VALUES ('health', '" + gid + "')");
            statement.execute("PREPARE TRANSACTION '" + gid + "'");
        }
        try {
            // Reported once it is older than the configured PT1S; the inbox stays ready.
            Await.until(Duration.ofSeconds(10), "the prepared transaction to be reported",
                    () -> gid.equals(ready(application).find("oldestPreparedTransaction")));
            Readiness readiness = ready(application);
            assertTrue(readiness.up(), readiness.body());
            assertEquals("1", readiness.value("preparedTransactions"), readiness.body());
        } finally {
            TestDatabase.update("ROLLBACK PREPARED '" + gid + "'");
        }
        assertEquals("0", ready(application).value("preparedTransactions"));
    }
}
