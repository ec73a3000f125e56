package io.github.txinbox.it.http;

import io.github.txinbox.http.Idempotent;
import jakarta.enterprise.context.RequestScoped;
import jakarta.inject.Inject;
import jakarta.transaction.Transactional;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;

/** The order endpoint on a CDI bean: {@code @Transactional} and {@code @Idempotent}. */
@Path("orders")
@RequestScoped
public class HttpOrders {

    /** The scope of its keys, and the consumer its calls and invoices are counted under. */
    public static final String SCOPE = "http-orders";

    @Inject
    OrderDesk desk;

    /**
     * Takes an order; the key is required.
     *
     * @param body      JSON with an {@code orderId}
     * @param behaviour what to do ({@link OrderDesk})
     * @return the answer
     */
    @POST
    @Transactional
    @Idempotent(scope = SCOPE)
    @Consumes(MediaType.APPLICATION_JSON)
    public Response create(String body, @HeaderParam(OrderDesk.BEHAVIOUR) String behaviour) {
        return desk.take(SCOPE, body, behaviour);
    }

    /**
     * Takes an order; the key is optional.
     *
     * @param body JSON with an {@code orderId}
     * @return the answer
     */
    @POST
    @Path("optional-key")
    @Transactional
    @Idempotent(scope = SCOPE, required = false)
    @Consumes(MediaType.APPLICATION_JSON)
    public Response createWithOptionalKey(String body) {
        return desk.take(SCOPE, body, null);
    }

    /**
     * Answers that the endpoint is there; not intercepted.
     *
     * @return 200
     */
    @GET
    public Response ping() {
        return Response.ok("orders").build();
    }
}
