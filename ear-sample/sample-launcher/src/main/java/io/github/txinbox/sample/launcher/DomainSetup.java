package io.github.txinbox.sample.launcher;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Sets up Payara's domain1 for the sample: every listener on 127.0.0.1, the database connection as system
 * properties (read by the EAR's {@code @DataSourceDefinition} through {@code MPCONFIG}), and the queue.
 */
final class DomainSetup {

    private static final String CONFIG = "configs.config.server-config.";

    private DomainSetup() {
    }

    /** Writes the OpenMQ broker's own settings, which it reads when it first starts. */
    static void beforeStart(Path payaraHome) {
        Path props = payaraHome.resolve("glassfish/domains/domain1/imq/instances/imqbroker/props");
        try {
            Files.createDirectories(props);
            Path file = props.resolve("config.properties");
            if (!Files.exists(file)) {
                Files.writeString(file, String.join(System.lineSeparator(),
                        "imq.hostname=127.0.0.1",
                        "imq.jmx.hostname=127.0.0.1",
                        // The broker's JMX connector exports an RMI object on a random port of every interface.
                        "imq.jmx.connector.activelist=",
                        // A transaction rolled back this many times in a row sends its message to mq.sys.dmq,
                        // instead of the immediate, endless redelivery OpenMQ does by default.
                        "imq.transaction.message.maxConsecutiveRollbacks=5",
                        ""));
            }
        } catch (IOException e) {
            throw new LauncherException("Could not write the broker settings in " + props + ": " + e.getMessage());
        }
    }

    /** Runs with the domain up; takes effect at the next restart. */
    static void configure(Asadmin asadmin, String jdbcUrl, String purgeInterval) {
        String listeners = CONFIG + "network-config.network-listeners.network-listener.";
        asadmin.run("set", listeners + "http-listener-1.address=127.0.0.1");
        asadmin.run("set", listeners + "http-listener-2.address=127.0.0.1");
        asadmin.run("set", listeners + "admin-listener.address=127.0.0.1");
        asadmin.run("set", CONFIG + "iiop-service.iiop-listener.orb-listener-1.address=127.0.0.1");
        asadmin.run("set", CONFIG + "iiop-service.iiop-listener.SSL.address=127.0.0.1");
        asadmin.run("set", CONFIG + "iiop-service.iiop-listener.SSL_MUTUALAUTH.address=127.0.0.1");
        asadmin.run("set", CONFIG + "admin-service.jmx-connector.system.address=127.0.0.1");
        // Its RMI server object would listen on a random port of every interface; the sample needs no JMX.
        asadmin.run("set", CONFIG + "admin-service.jmx-connector.system.enabled=false");
        asadmin.run("set", CONFIG + "jms-service.jms-host.default_JMS_host.host=127.0.0.1");
        asadmin.run("set-hazelcast-configuration", "--interfaces", "127.0.0.1");
        // The EJB timer service's H2 database, in AUTO_SERVER mode, opens a TCP server on every interface.
        for (String pool : new String[] {"__TimerPool", "H2Pool"}) {
            String name = "resources.jdbc-connection-pool." + pool + ".property.URL";
            String line = asadmin.run("get", name).lines().filter(l -> l.startsWith(name + "=")).findFirst()
                    .orElseThrow(() -> new LauncherException("asadmin get " + name + " printed no value"));
            if (line.contains(";AUTO_SERVER=TRUE")) {
                asadmin.run("set", line.replace(";AUTO_SERVER=TRUE", ""));
            }
        }
        String options = asadmin.run("list-jvm-options");
        addJvmOption(asadmin, options, "-Dhazelcast.socket.bind.any=false");
        addJvmOption(asadmin, options, "-Dsample.db.url=" + jdbcUrl);
        addJvmOption(asadmin, options, "-Dsample.db.user=" + System.getProperty("sample.db.user"));
        addJvmOption(asadmin, options, "-Dsample.db.password=" + System.getProperty("sample.db.password"));
        addJvmOption(asadmin, options, "-Dsample.inbox.retention=P7D");
        addJvmOption(asadmin, options, "-Dsample.inbox.purge-interval=" + purgeInterval);
        if (!asadmin.run("list-jms-resources").contains("jms/OrderPlaced")) {
            asadmin.run("create-jms-resource", "--restype", "jakarta.jms.Queue", "--property", "Name=OrderPlaced",
                    "jms/OrderPlaced");
        }
    }

    private static void addJvmOption(Asadmin asadmin, String existing, String option) {
        String name = option.substring(0, option.indexOf('=') + 1);
        for (String line : existing.split("\\R")) {
            String present = line.strip();
            if (present.startsWith(name)) {
                if (present.equals(option)) {
                    return;
                }
                asadmin.run("delete-jvm-options", escape(present));
            }
        }
        asadmin.run("create-jvm-options", escape(option));
    }

    /** asadmin separates JVM options with ':', so a ':' inside one must be escaped. */
    private static String escape(String option) {
        return option.replace(":", "\\:");
    }
}
