package io.github.txinbox.it.misuse;

import io.github.txinbox.Inbox;
import io.github.txinbox.http.Idempotent;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.jms.Message;
import jakarta.transaction.Transactional;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.core.Response;

/** An {@code @Inbox} method and an {@code @Idempotent} method in one scope, which the deployment refuses. */
@Path("shared-scope")
@ApplicationScoped
public class SharedScope {

    /** The scope both name. */
    public static final String SCOPE = "shared";

    /**
     * Handles a message.
     *
     * @param message the message
     */
    @Transactional
    @Inbox(scope = SCOPE)
    public void handle(Message message) {
    }

    /**
     * Takes a request.
     *
     * @param body the body
     * @return never a response: the deployment fails
     */
    @POST
    @Transactional
    @Idempotent(scope = SCOPE)
    public Response create(String body) {
        return Response.ok().build();
    }
}
