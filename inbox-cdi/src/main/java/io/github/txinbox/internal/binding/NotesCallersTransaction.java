package io.github.txinbox.internal.binding;

import jakarta.enterprise.util.AnnotationLiteral;
import jakarta.interceptor.InterceptorBinding;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Binds {@link TransactionBoundary} to an {@code @Inbox} method of a CDI bean, whose binding needs its caller's
 * transaction noted ({@link InboxBinding.Transaction#NOTED}). Never written by hand: {@link InboxExtension} adds it, at
 * deployment, to those methods and to no others, so that a message-driven bean's or a session bean's call runs one
 * interceptor of the library, not two.
 */
@InterceptorBinding
@Retention(RetentionPolicy.RUNTIME)
@Target({ElementType.METHOD, ElementType.TYPE})
public @interface NotesCallersTransaction {

    /** The annotation, as the extension adds it. */
    final class Literal extends AnnotationLiteral<NotesCallersTransaction> implements NotesCallersTransaction {

        private static final long serialVersionUID = 1L;

        /** The one instance. */
        public static final Literal INSTANCE = new Literal();

        private Literal() {
        }
    }
}
