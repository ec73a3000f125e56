package io.github.txinbox.bench.http;

import io.github.txinbox.Idempotent;
import io.github.txinbox.it.app.Invoice;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;
import jakarta.transaction.Transactional;
import jakarta.ws.rs.ApplicationPath;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.core.Application;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.net.URI;

/** The two endpoints of item 8, under {@code /bench}: the same work, without and with {@code @Idempotent}. */
@Path("orders")
@ApplicationScoped
public class BenchResources {

    /** The consumer name of the invoices written without the key. */
    public static final String WITHOUT = "http-bench-without";

    /** The consumer name of the invoices written with the key. */
    public static final String WITH = "http-bench-idempotent";

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

    private Response invoice(String consumer, String orderId) {
        Invoice invoice = new Invoice(consumer, orderId);
        entityManager.persist(invoice);
        return Response.created(URI.create("orders/" + invoice.getId())).type(MediaType.APPLICATION_JSON_TYPE)
                .entity("{\"orderId\":\"" + orderId + "\",\"invoiceId\":\"" + invoice.getId() + "\"}").build();
    }
}
