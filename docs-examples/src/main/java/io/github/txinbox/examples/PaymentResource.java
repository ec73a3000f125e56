package io.github.txinbox.examples;

// tag::resource[]
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

@Path("payments")
@RequestScoped
public class PaymentResource {

    @PersistenceContext
    EntityManager entityManager;

    @POST
    @Transactional // the key's marker, the payment and the response to replay commit together
    @Idempotent(scope = "payments") // the key comes from the header Idempotency-Key
    @Consumes(MediaType.APPLICATION_JSON)
    public Response pay(PaymentRequest request) {
        Payment payment = new Payment(request.amount());
        entityManager.persist(payment);
        entityManager.flush(); // the body is written before the commit: let it see what the flush sets
        return Response.created(URI.create("payments/" + payment.getId()))
                .type(MediaType.APPLICATION_JSON) // the body is stored as this type writes it
                .entity(payment)
                .build();
    }
}
// end::resource[]
