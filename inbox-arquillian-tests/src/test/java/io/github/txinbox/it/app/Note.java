package io.github.txinbox.it.app;

import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;
import java.util.UUID;

/** A plain entity, written beside the inbox's markers to see what the inbox does to the persistence context. */
@Entity
@Table(name = "note")
public class Note {

    @Id
    private UUID id;

    private String text;

    protected Note() {
    }

    public Note(String text) {
        this.id = UUID.randomUUID();
        this.text = text;
    }

    public UUID getId() {
        return id;
    }

    public String getText() {
        return text;
    }
}
