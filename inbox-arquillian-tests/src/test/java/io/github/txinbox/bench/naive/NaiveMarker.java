package io.github.txinbox.bench.naive;

import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.IdClass;
import jakarta.persistence.Table;
import java.io.Serializable;

/** A processed-message marker as an entity, keyed like the inbox's: what "persist and catch" persists. */
@Entity
@Table(name = "naive_marker", schema = "txinbox_bench")
@IdClass(NaiveMarker.Key.class)
public class NaiveMarker {

    /** The composite key. */
    public record Key(String scope, String messageId) implements Serializable {
        public Key() {
            this(null, null);
        }
    }

    @Id
    private String scope;

    @Id
    private String messageId;

    protected NaiveMarker() {
    }

    public NaiveMarker(String scope, String messageId) {
        this.scope = scope;
        this.messageId = messageId;
    }
}
