package io.github.txinbox.it.app;

import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;
import java.util.UUID;

/** A plain entity, written beside the inbox's markers to see what the inbox does to the persistence context. */
@Entity
@Table(name = "note")
public class Note {

    /** A random UUID as text: EclipseLink 4 binds {@code java.util.UUID} as bytea (see docs/compatibility.md). */
    @Id
    private String id;

    private String text;

    protected Note() {
    }

    public Note(String text) {
        this.id = UUID.randomUUID().toString();
        this.text = text;
    }

    public String getId() {
        return id;
    }

    public String getText() {
        return text;
    }
}
