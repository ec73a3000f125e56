package io.github.txinbox.it.http;

import io.github.txinbox.http.Idempotent;
import io.github.txinbox.it.app.TestDatabase;
import jakarta.transaction.Transactional;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.core.Response;

/**
 * An order endpoint without a scope, in a bean archive discovered by annotations. RESTEasy (WildFly, Open Liberty)
 * makes it a request-scoped CDI bean itself; Jersey (Payara, GlassFish) creates it outside CDI, where neither
 * {@code @Transactional} nor {@code @Idempotent} applies, and the library refuses its requests.
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
