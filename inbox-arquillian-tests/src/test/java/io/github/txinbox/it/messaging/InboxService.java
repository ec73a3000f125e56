package io.github.txinbox.it.messaging;

import io.github.txinbox.Inbox;
import jakarta.enterprise.inject.Stereotype;
import jakarta.transaction.Transactional;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/** A stereotype of the application's own that carries {@code @Inbox} and a transaction to its beans. */
@Stereotype
@Transactional
@Inbox(scope = StereotypedService.SCOPE, resolver = OrderIdResolver.class)
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.TYPE)
public @interface InboxService {
}
