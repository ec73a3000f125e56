package io.github.txinbox.it.http;

import io.github.txinbox.http.Idempotent;
import jakarta.ejb.Stateless;
import jakarta.inject.Inject;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;

/** The order endpoint on a stateless session bean, in its container-managed transaction (REQUIRED). */
@Path("ejb-orders")
@Stateless
public class EjbHttpOrders {

    /** The scope of its keys, and the consumer its calls and invoices are counted under. */
    public static final String SCOPE = "http-ejb-orders";

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
    @Idempotent(scope = SCOPE)
    @Consumes(MediaType.APPLICATION_JSON)
    public Response create(String body, @HeaderParam(OrderDesk.BEHAVIOUR) String behaviour) {
        return desk.take(SCOPE, body, behaviour);
    }
}
