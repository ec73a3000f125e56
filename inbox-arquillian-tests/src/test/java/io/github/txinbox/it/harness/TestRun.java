package io.github.txinbox.it.harness;

import java.io.IOException;
import java.io.UncheckedIOException;
import org.junit.platform.launcher.LauncherSession;
import org.junit.platform.launcher.LauncherSessionListener;

/**
 * The one set-up of a test run (one failsafe JVM), before Arquillian reads {@code arquillian.xml}: PostgreSQL
 * ({@link PostgresSession}), the test broker where the server uses it ({@link ArtemisSession}), a Kafka broker where the
 * server has a Kafka connector and the run the non-XA datasource ({@link KafkaBroker}), then the server of the run
 * ({@link Server#setUp()}). When the run ends, or a step fails, what was started stops in the reverse order.
 */
public final class TestRun implements LauncherSessionListener {

    private PostgresSession postgres;
    private Server server;
    private boolean broker;
    private KafkaBroker kafka;

    @Override
    public void launcherSessionOpened(LauncherSession session) {
        try {
            postgres = new PostgresSession();
            postgres.open();
            Server current = Server.current();
            if (current.usesTestBroker()) {
                ArtemisSession.open();
                broker = true;
            }
            // Kafka has no XA: its tests run with the non-XA datasource only.
            if (current.hasKafkaConnector() && Server.nonXa()) {
                kafka = KafkaBroker.open();
            }
            current.setUp();
            server = current;
        } catch (IOException | RuntimeException e) {
            try {
                launcherSessionClosed(session);
            } catch (RuntimeException stop) {
                e.addSuppressed(stop);
            }
            throw e instanceof IOException io ? new UncheckedIOException("Could not set up the test run", io)
                    : (RuntimeException) e;
        }
    }

    @Override
    public void launcherSessionClosed(LauncherSession session) {
        RuntimeException failure = null;
        Runnable[] steps = {this::stopServer, this::stopKafka, this::stopBroker, this::stopPostgres};
        for (Runnable step : steps) {
            try {
                step.run();
            } catch (RuntimeException e) {
                if (failure == null) {
                    failure = e;
                } else {
                    failure.addSuppressed(e);
                }
            }
        }
        if (failure != null) {
            throw failure;
        }
    }

    private void stopServer() {
        Server running = server;
        server = null;
        if (running != null) {
            running.tearDown();
        }
    }

    private void stopBroker() {
        if (broker) {
            broker = false;
            ArtemisSession.close();
        }
    }

    private void stopKafka() {
        KafkaBroker started = kafka;
        kafka = null;
        if (started != null) {
            started.close();
        }
    }

    private void stopPostgres() {
        PostgresSession started = postgres;
        postgres = null;
        if (started != null) {
            started.close();
        }
    }
}
