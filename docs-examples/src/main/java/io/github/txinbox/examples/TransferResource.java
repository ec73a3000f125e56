package io.github.txinbox.examples;

import io.github.txinbox.http.Idempotent;
import jakarta.enterprise.context.RequestScoped;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;
import jakarta.transaction.Transactional;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.net.URI;

@Path("transfers")
@RequestScoped
public class TransferResource {

    @PersistenceContext
    EntityManager entityManager;

    // tag::per-caller[]
    @POST
    @Transactional
    @Idempotent(scope = "transfers", perPrincipal = true) // each authenticated caller's keys are its own
    @Consumes(MediaType.APPLICATION_JSON)
    public Response transfer(PaymentRequest request) {
        Payment payment = new Payment(request.amount());
        entityManager.persist(payment);
        entityManager.flush();
        return Response.created(URI.create("transfers/" + payment.getId()))
                .type(MediaType.APPLICATION_JSON)
                .entity(payment)
                .build();
    }
    // end::per-caller[]
}
