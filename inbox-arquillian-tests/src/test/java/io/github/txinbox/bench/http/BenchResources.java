package io.github.txinbox.bench.http;

import io.github.txinbox.http.Idempotent;
import io.github.txinbox.it.app.Invoice;
import io.github.txinbox.it.app.TestDatabase;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;
import jakarta.transaction.Transactional;
import jakarta.ws.rs.ApplicationPath;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.core.Application;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.HexFormat;

/** The two endpoints of item 8, under {@code /bench}: the same work, without and with {@code @Idempotent}. */
@Path("orders")
@ApplicationScoped
public class BenchResources {

    /** The consumer name of the invoices written without the key. */
    public static final String WITHOUT = "http-bench-without";

    /** The consumer name of the invoices written with the key. */
    public static final String WITH = "http-bench-idempotent";

    /** The consumer name of the invoices written with the marker's row by hand. */
    public static final String BY_HAND = "http-bench-by-hand";

    /** The application's root. */
    @ApplicationPath("bench")
    public static class BenchApplication extends Application {
    }

    @PersistenceContext
    EntityManager entityManager;

    /**
     * Writes an invoice; no key.
     *
     * @param orderId the body: the order's id
     * @return 201 with the invoice as JSON
     */
    @POST
    @Path("plain")
    @Transactional
    @Consumes(MediaType.TEXT_PLAIN)
    public Response plain(String orderId) {
        return invoice(WITHOUT, orderId);
    }

    /**
     * Writes an invoice, once per key.
     *
     * @param orderId the body: the order's id
     * @return 201 with the invoice as JSON
     */
    @POST
    @Path("idempotent")
    @Transactional
    @Idempotent(scope = WITH)
    @Consumes(MediaType.TEXT_PLAIN)
    public Response idempotent(String orderId) {
        return invoice(WITH, orderId);
    }

    /**
     * Writes an invoice and, by hand, the one row a stored response needs: the marker with a fingerprint and the
     * response, in one INSERT, without checking anything. The floor of what a stored response costs in the database.
     *
     * @param orderId the body: the order's id
     * @param key     the key
     * @return 201 with the invoice as JSON
     */
    @POST
    @Path("by-hand")
    @Transactional
    @Consumes(MediaType.TEXT_PLAIN)
    public Response byHand(String orderId, @HeaderParam(Idempotent.IDEMPOTENCY_KEY) String key) {
        Response response = invoice(BY_HAND, orderId);
        entityManager.createNativeQuery("INSERT INTO " + TestDatabase.INBOX + " (scope, message_id, processed_at, "
                        + "request_fingerprint, response_status, response_headers, response_body) "
                        + "VALUES (?1, ?2, now(), decode(?3, 'hex'), CAST(?4 AS smallint), ?5, decode(?6, 'base64'))")
                .setParameter(1, BY_HAND)
                .setParameter(2, key)
                .setParameter(3, HexFormat.of().formatHex(new byte[32]))
                .setParameter(4, "201")
                .setParameter(5, "Content-Type: application/json\nLocation: " + response.getLocation() + "\n")
                .setParameter(6, Base64.getEncoder().encodeToString(((String) response.getEntity())
                        .getBytes(StandardCharsets.UTF_8)))
                .executeUpdate();
        return response;
    }

    private Response invoice(String consumer, String orderId) {
        Invoice invoice = new Invoice(consumer, orderId);
        entityManager.persist(invoice);
        return Response.created(URI.create("orders/" + invoice.getId())).type(MediaType.APPLICATION_JSON_TYPE)
                .entity("{\"orderId\":\"" + orderId + "\",\"invoiceId\":\"" + invoice.getId() + "\"}").build();
    }
}
