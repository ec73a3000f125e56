package io.github.txinbox.it.misuse;

import io.github.txinbox.http.Idempotent;
import jakarta.enterprise.context.RequestScoped;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.core.Response;

/** {@code @Idempotent} where it cannot apply: a resource method without a transaction, and a {@code GET}. */
@Path("untransacted-orders")
@RequestScoped
public class UntransactedOrders {

    /**
     * Runs without a transaction.
     *
     * @param body the body
     * @return never a response: the deployment fails
     */
    @POST
    @Idempotent
    public Response create(String body) {
        return Response.ok().build();
    }

    /**
     * Changes nothing.
     *
     * @return never a response: the deployment fails
     */
    @GET
    @Idempotent
    public Response read() {
        return Response.ok().build();
    }
}
