package io.github.txinbox.it.http;

import io.github.txinbox.Idempotent;
import io.github.txinbox.it.app.TestDatabase;
import jakarta.transaction.Transactional;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.core.Response;

/**
 * An order endpoint that is no CDI bean (no scope, in a bean archive discovered by annotations): Jakarta REST creates
 * it, so neither {@code @Transactional} nor {@code @Idempotent} applies. The library refuses its requests.
 */
@Path("plain-orders")
public class PlainOrders {

    /** The consumer its calls would be recorded under. */
    public static final String CONSUMER = "http-plain-orders";

    /**
     * Records a call, which the test expects never to see.
     *
     * @param body the order
     * @return 201
     */
    @POST
    @Transactional
    @Idempotent
    public Response create(String body) {
        TestDatabase.update("INSERT INTO " + TestDatabase.SCHEMA + ".handler_call (consumer, order_id, delivery) "
                + "VALUES (?, ?, 1)", CONSUMER, body);
        return Response.status(201).build();
    }
}
