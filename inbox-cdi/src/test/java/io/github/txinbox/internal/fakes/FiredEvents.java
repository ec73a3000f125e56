package io.github.txinbox.internal.fakes;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.github.txinbox.InboxEvent;
import jakarta.enterprise.event.Event;
import jakarta.enterprise.event.NotificationOptions;
import jakarta.enterprise.util.TypeLiteral;
import java.lang.annotation.Annotation;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletionStage;

/** The application's observers, as the library fires to them: each event kept, in order. */
public final class FiredEvents implements Event<InboxEvent> {

    private final List<InboxEvent> fired = new ArrayList<>();

    /**
     * Returns the events fired so far.
     *
     * @return the events, oldest first
     */
    public List<InboxEvent> fired() {
        return List.copyOf(fired);
    }

    /**
     * Returns the one event fired, failing where there is another number of them.
     *
     * @return the event
     */
    public InboxEvent only() {
        assertEquals(1, fired.size(), () -> "events: " + fired);
        return fired.get(0);
    }

    @Override
    public void fire(InboxEvent event) {
        fired.add(event);
    }

    @Override
    public <U extends InboxEvent> CompletionStage<U> fireAsync(U event) {
        throw new UnsupportedOperationException("the library fires its events synchronously");
    }

    @Override
    public <U extends InboxEvent> CompletionStage<U> fireAsync(U event, NotificationOptions options) {
        throw new UnsupportedOperationException("the library fires its events synchronously");
    }

    @Override
    public Event<InboxEvent> select(Annotation... qualifiers) {
        throw new UnsupportedOperationException("the library fires its events unqualified");
    }

    @Override
    public <U extends InboxEvent> Event<U> select(Class<U> subtype, Annotation... qualifiers) {
        throw new UnsupportedOperationException("the library fires its events unqualified");
    }

    @Override
    public <U extends InboxEvent> Event<U> select(TypeLiteral<U> subtype, Annotation... qualifiers) {
        throw new UnsupportedOperationException("the library fires its events unqualified");
    }
}
