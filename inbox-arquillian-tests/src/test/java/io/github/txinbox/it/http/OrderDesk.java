package io.github.txinbox.it.http;

import io.github.txinbox.it.app.Invoice;
import io.github.txinbox.it.app.TestDatabase;
import io.github.txinbox.it.crash.CrashPoint;
import jakarta.annotation.Resource;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.transaction.TransactionSynchronizationRegistry;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.net.URI;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What both order endpoints do, in their transaction: record the call (outside it), write an invoice, and answer as
 * the request's {@value #BEHAVIOUR} header says.
 */
@ApplicationScoped
public class OrderDesk {

    /** The request header that chooses the behaviour; not part of the request's fingerprint. */
    public static final String BEHAVIOUR = "Test-Behaviour";

    /** The request attribute where the endpoint leaves the order id, for {@link HangAfterCommit}. */
    public static final String ORDER_ATTRIBUTE = "test.orderId";

    /** The scope under which rejected orders are written: the effect of a committed 4xx. */
    public static final String REJECTED = "http-rejected";

    private static final Pattern ORDER_ID = Pattern.compile("\"orderId\"\\s*:\\s*\"([^\"]+)\"");

    @PersistenceContext
    EntityManager entityManager;

    @Resource(lookup = "java:comp/TransactionSynchronizationRegistry")
    TransactionSynchronizationRegistry transactions;

    @Inject
    HttpServletRequest request;

    /**
     * Takes an order.
     *
     * @param consumer  the endpoint's name, under which calls and invoices are counted
     * @param body      the request body, JSON with an {@code orderId}
     * @param behaviour the {@value #BEHAVIOUR} header, or {@code null}
     * @return the answer
     */
    public Response take(String consumer, String body, String behaviour) {
        Matcher matcher = ORDER_ID.matcher(body == null ? "" : body);
        if (!matcher.find()) {
            return Response.status(400).type(MediaType.TEXT_PLAIN_TYPE).entity("no orderId").build();
        }
        String orderId = matcher.group(1);
        request.setAttribute(ORDER_ATTRIBUTE, orderId);
        // Outside the transaction, so that calls whose transaction rolls back count too.
        TestDatabase.update("INSERT INTO " + TestDatabase.SCHEMA + ".handler_call (consumer, order_id, delivery) "
                + "VALUES (?, ?, 1)", consumer, orderId);
        String b = behaviour == null ? "" : behaviour;
        if (b.equals("out-of-stock")) {
            entityManager.persist(new Invoice(REJECTED, orderId));
            return Response.status(409).type(MediaType.TEXT_PLAIN_TYPE).entity("order " + orderId + ": out of stock")
                    .build();
        }
        Invoice invoice = new Invoice(consumer, orderId);
        entityManager.persist(invoice);
        entityManager.flush();
        switch (b) {
            case "fail" -> throw new IllegalStateException("simulated failure of " + orderId);
            case "server-error" -> {
                return Response.serverError().type(MediaType.TEXT_PLAIN_TYPE).entity("try again").build();
            }
            case "rollback-only" -> transactions.setRollbackOnly();
            case "slow" -> pause(300);
            case "hold" -> CrashPoint.holdOnce(orderId);
            case "large" -> {
                return Response.ok("x".repeat(70_000), MediaType.TEXT_PLAIN_TYPE).build();
            }
            default -> {
                // Answers below.
            }
        }
        return Response.created(URI.create("orders/" + invoice.getId())).type(MediaType.APPLICATION_JSON_TYPE)
                .entity(new Receipt(orderId, invoice.getId())).header("ETag", "\"" + invoice.getId() + "\"")
                .header("X-Not-Replayed", "first").build();
    }

    private static void pause(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
