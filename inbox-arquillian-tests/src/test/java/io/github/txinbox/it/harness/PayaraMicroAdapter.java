package io.github.txinbox.it.harness;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.jboss.arquillian.container.spi.client.container.ContainerConfiguration;
import org.jboss.arquillian.container.spi.client.container.DeployableContainer;
import org.jboss.arquillian.container.spi.client.container.DeploymentException;
import org.jboss.arquillian.container.spi.client.protocol.ProtocolDescription;
import org.jboss.arquillian.container.spi.client.protocol.metadata.HTTPContext;
import org.jboss.arquillian.container.spi.client.protocol.metadata.ProtocolMetaData;
import org.jboss.arquillian.container.spi.client.protocol.metadata.Servlet;
import org.jboss.arquillian.core.spi.LoadableExtension;
import org.jboss.shrinkwrap.api.Archive;

/**
 * Arquillian's container for the Payara Micro that {@link PayaraMicro#setUp()} starts once for the whole run: it
 * deploys each test class's WAR into that running server and undeploys it afterwards, through the deployer
 * application ({@link io.github.txinbox.it.deployer}), instead of booting a server per class. A WAR Payara refuses
 * fails with Arquillian's {@link DeploymentException}, carrying what the server logged while it tried.
 */
public final class PayaraMicroAdapter implements DeployableContainer<PayaraMicroAdapter.Configuration> {

    /** The servlet through which Arquillian's servlet protocol runs a test method in the deployment. */
    private static final String TEST_RUNNER = "ArquillianServletRunnerEE9";

    private static final Duration DEPLOYMENT = Duration.ofMinutes(3);

    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();

    @Override
    public Class<Configuration> getConfigurationClass() {
        return Configuration.class;
    }

    @Override
    public ProtocolDescription getDefaultProtocol() {
        return new ProtocolDescription("Servlet 5.0");
    }

    @Override
    public ProtocolMetaData deploy(Archive<?> archive) throws DeploymentException {
        String name = name(archive);
        Path file = Deployments.export(archive);
        Path log = PayaraMicro.sharedLog();
        long from = size(log);
        HttpResponse<String> response = send(HttpRequest.newBuilder(uri(name, file)).timeout(DEPLOYMENT)
                .POST(HttpRequest.BodyPublishers.noBody()).build());
        if (response.statusCode() != 200) {
            throw new DeploymentException("Payara Micro did not deploy " + archive.getName() + " (HTTP "
                    + response.statusCode() + "); its log meanwhile:\n" + since(log, from));
        }
        HTTPContext context = new HTTPContext("127.0.0.1", PayaraMicro.httpPort());
        context.add(new Servlet(TEST_RUNNER, "/" + name));
        return new ProtocolMetaData().addContext(context);
    }

    @Override
    public void undeploy(Archive<?> archive) throws DeploymentException {
        HttpResponse<String> response = send(HttpRequest.newBuilder(uri(name(archive), null)).timeout(DEPLOYMENT)
                .DELETE().build());
        if (response.statusCode() != 200) {
            throw new DeploymentException("Payara Micro did not undeploy " + archive.getName() + " (HTTP "
                    + response.statusCode() + "): " + response.body());
        }
    }

    private static String name(Archive<?> archive) {
        String name = archive.getName();
        return name.endsWith(".war") ? name.substring(0, name.length() - 4) : name;
    }

    private static URI uri(String name, Path file) {
        String query = "name=" + URLEncoder.encode(name, StandardCharsets.UTF_8);
        if (file != null) {
            query += "&file=" + URLEncoder.encode(file.toAbsolutePath().toString(), StandardCharsets.UTF_8);
        }
        return URI.create("http://127.0.0.1:" + PayaraMicro.httpPort() + "/" + PayaraMicro.DEPLOYER + "/deployments?"
                + query);
    }

    private HttpResponse<String> send(HttpRequest request) throws DeploymentException {
        try {
            return http.send(request, HttpResponse.BodyHandlers.ofString());
        } catch (IOException e) {
            throw new DeploymentException("The shared Payara Micro did not answer " + request.method() + " "
                    + request.uri() + "; its log: " + PayaraMicro.sharedLog(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new DeploymentException("Interrupted while " + request.uri() + " ran", e);
        }
    }

    private static long size(Path log) {
        try {
            return Files.exists(log) ? Files.size(log) : 0;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static String since(Path log, long from) {
        try {
            byte[] bytes = Files.readAllBytes(log);
            int start = (int) Math.min(from, bytes.length);
            return new String(bytes, start, bytes.length - start, StandardCharsets.UTF_8);
        } catch (IOException e) {
            return "(could not read " + log + ": " + e + ")";
        }
    }

    /** Nothing to configure: the server, its port and its log are the harness's ({@link PayaraMicro}). */
    public static final class Configuration implements ContainerConfiguration {

        @Override
        public void validate() {
        }
    }

    /** Registers the container on a Payara Micro run ({@code txinbox.it.server} unset or {@code payara}) only. */
    public static final class Extension implements LoadableExtension {

        @Override
        public void register(ExtensionBuilder builder) {
            if (Server.current().name().equals(PayaraMicro.NAME)) {
                builder.service(DeployableContainer.class, PayaraMicroAdapter.class);
            }
        }
    }
}
