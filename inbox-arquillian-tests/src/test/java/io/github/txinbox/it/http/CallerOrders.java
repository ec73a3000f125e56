package io.github.txinbox.it.http;

import io.github.txinbox.http.Idempotent;
import jakarta.enterprise.context.RequestScoped;
import jakarta.inject.Inject;
import jakarta.transaction.Transactional;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;

/** The order endpoint of an API that several callers use: each caller's keys are its own. */
@Path("caller-orders")
@RequestScoped
public class CallerOrders {

    /** The scope of its keys (each caller's under it), and the consumer its calls and invoices are counted under. */
    public static final String SCOPE = "http-caller-orders";

    @Inject
    OrderDesk desk;

    /**
     * Takes an order for the request's caller; the key is required.
     *
     * @param body JSON with an {@code orderId}
     * @return the answer
     */
    @POST
    @Transactional
    @Idempotent(scope = SCOPE, perPrincipal = true)
    @Consumes(MediaType.APPLICATION_JSON)
    public Response create(String body) {
        return desk.take(SCOPE, body, null);
    }
}
