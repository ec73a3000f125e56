package io.github.txinbox.it.app;

import io.github.txinbox.InboxRepository;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.transaction.Transactional;
import java.time.Duration;
import java.time.Instant;

/** Calls the inbox from CDI methods that suspend any transaction of the caller. */
@ApplicationScoped
@Transactional(Transactional.TxType.NOT_SUPPORTED)
public class NotSupportedBean {

    @Inject
    private InboxRepository inbox;

    public boolean claim(String scope, String messageId) {
        return inbox.claim(scope, messageId);
    }

    public Instant cleanupCutoff(Duration retention) {
        return inbox.cleanupCutoff(retention);
    }

    public int deleteExpiredBatch(Instant cutoff, int limit) {
        return inbox.deleteExpiredBatch(cutoff, limit);
    }
}
