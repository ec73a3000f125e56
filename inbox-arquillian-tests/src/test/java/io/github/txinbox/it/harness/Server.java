package io.github.txinbox.it.harness;

import java.nio.file.Path;
import java.util.Locale;

/**
 * The server a test run deploys to, named by the system property {@code txinbox.it.server} (the build's
 * {@code -Dit.server=...}), and what differs between servers for the portable suite: where the datasource comes from
 * and how a message-driven bean is bound to its queue. Everything else in the portable tests is plain Jakarta EE.
 */
public enum Server {

    /**
     * Payara Micro: the deployment defines its datasource ({@code TestDataSourceDefinition}), and message-driven beans
     * reach the test JVM's Artemis broker through the test resource adapter.
     */
    PAYARA("java:app/jdbc/inbox-it"),

    /**
     * WildFly (standalone-full): a server-level datasource and queues, set up by {@link WildFlySession}; its own
     * Artemis broker and Hibernate.
     */
    WILDFLY("java:jboss/datasources/InboxIT"),

    /**
     * Open Liberty: a server-level datasource, messaging engine queues and activation specifications in its
     * server.xml, written by {@link LibertySession}; its own EclipseLink.
     */
    LIBERTY("jdbc/inbox-it"),

    /**
     * GlassFish (full profile): a server-level datasource and queues, set up by {@link GlassFishSession}; its own
     * OpenMQ broker and EclipseLink.
     */
    GLASSFISH("jdbc/inbox-it");

    private final String dataSource;

    Server(String dataSource) {
        this.dataSource = dataSource;
    }

    /**
     * Returns the server of this run.
     *
     * @return the server named by {@code txinbox.it.server}, Payara Micro when it is not set
     * @throws IllegalStateException when it names no known server
     */
    public static Server current() {
        String name = System.getProperty("txinbox.it.server", "payara").trim();
        try {
            return valueOf(name.toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new IllegalStateException("txinbox.it.server is '" + name
                    + "'; expected payara, wildfly, liberty or glassfish", e);
        }
    }

    /**
     * Tells whether this run's datasource is non-XA: the system property {@code txinbox.it.datasource} (the build's
     * {@code -Dit.datasource=...}) is {@code local}. The database then runs with PostgreSQL's default
     * {@code max_prepared_transactions = 0}, and the datasource is the one one-phase resource of each transaction.
     *
     * @return true on a non-XA run, false on an XA one (the default)
     */
    public static boolean nonXa() {
        String kind = System.getProperty("txinbox.it.datasource", "xa").trim();
        if (!kind.equals("xa") && !kind.equals("local")) {
            throw new IllegalStateException("txinbox.it.datasource is '" + kind + "'; expected xa or local");
        }
        return kind.equals("local");
    }

    /**
     * Tells whether the server gives each application MicroProfile Config, which reads the application's
     * {@code META-INF/microprofile-config.properties}: all but the Open Liberty test server, which runs without the
     * {@code mpConfig} feature, so that the inbox reads its settings from system properties alone.
     *
     * @return whether a setting can be given per deployment
     */
    public boolean hasMicroProfileConfig() {
        return this != LIBERTY;
    }

    /**
     * Returns the JNDI name of the datasource the test persistence unit uses on this server.
     *
     * @return the name
     */
    public String dataSource() {
        return dataSource;
    }

    /**
     * Tells whether the deployment defines its own datasource, or the server provides it.
     *
     * @return true on Payara Micro
     */
    public boolean deploymentDefinesDataSource() {
        return this == PAYARA;
    }

    /**
     * Tells whether this server's broker waits before it redelivers a message whose delivery failed. Open Liberty's
     * embedded messaging engine does not when failed messages go to an exception destination: its queue attribute
     * {@code redeliveryInterval} applies only without one, after the delivery limit, and its activation
     * specification has no delay.
     *
     * @return false on Open Liberty
     */
    public boolean brokerDelaysRedelivery() {
        return this != LIBERTY;
    }

    /**
     * Returns the directory of this server's descriptors among the test resources.
     *
     * @return {@code servers/payara}, {@code servers/wildfly}, {@code servers/liberty} or {@code servers/glassfish}
     */
    String descriptors() {
        return "servers/" + name().toLowerCase(Locale.ROOT);
    }

    /**
     * Returns the log of the server that Arquillian runs, where a failed deployment's cause is written.
     *
     * @return the log file
     * @throws UnsupportedOperationException on Payara Micro, which runs a server per deployment
     */
    public Path log() {
        return switch (this) {
            case WILDFLY -> Path.of(System.getProperty("txinbox.it.wildfly.home"), "standalone/log/server.log");
            case LIBERTY -> Path.of(System.getProperty("txinbox.it.liberty.home"), "usr/servers",
                    LibertySession.SERVER, "logs/messages.log");
            case GLASSFISH -> Path.of(System.getProperty("txinbox.it.glassfish.home"), "domains",
                    GlassFishSession.DOMAIN, "logs/server.log");
            case PAYARA -> throw new UnsupportedOperationException("Payara Micro runs a server per deployment");
        };
    }

    /**
     * Tells whether the test JVM's own Artemis broker is the one the deployments use.
     *
     * @return true on Payara Micro
     */
    public boolean usesTestBroker() {
        return this == PAYARA;
    }
}
