package io.github.txinbox.http.internal;

import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.GenericEntity;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.MultivaluedHashMap;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.ext.MessageBodyWriter;
import jakarta.ws.rs.ext.Providers;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.lang.annotation.Annotation;
import java.lang.reflect.Method;
import java.lang.reflect.Type;

/**
 * Writes a response's entity to bytes with the application's own {@link MessageBodyWriter}, as Jakarta REST would write
 * it, so that the bytes stored are the bytes sent, the first time and on every replay.
 */
public final class ResponseBodies {

    /** A body written, with the media type it was written as ({@code null} for no body). */
    public record Written(MediaType mediaType, byte[] bytes) {
    }

    /** Thrown when a body cannot be written to be stored: too long, no writer, no media type. */
    public static final class NotStorable extends Exception {

        private static final long serialVersionUID = 1L;

        NotStorable(String message, Throwable cause) {
            super(message, cause);
        }
    }

    private ResponseBodies() {
    }

    /**
     * Writes the entity of a response.
     *
     * @param response  what the method returned
     * @param providers the application's providers
     * @param method    the resource method, whose {@code @Produces} names the media type where the response names
     *                  none, and whose annotations the writer sees
     * @param maxBytes  the longest body accepted
     * @return the bytes and their media type
     * @throws NotStorable when the body is too long, or no writer or media type is found
     */
    public static Written write(Response response, Providers providers, Method method, int maxBytes)
            throws NotStorable {
        Object entity = response.getEntity();
        if (entity == null) {
            return new Written(response.getMediaType(), new byte[0]);
        }
        MediaType mediaType = response.getMediaType() != null ? response.getMediaType() : produced(method, entity);
        Class<?> type = entity.getClass();
        Type generic = type;
        if (entity instanceof GenericEntity<?> wrapped) {
            entity = wrapped.getEntity();
            type = wrapped.getRawType();
            generic = wrapped.getType();
        }
        Annotation[] annotations = method.getAnnotations();
        @SuppressWarnings("unchecked")
        MessageBodyWriter<Object> writer = (MessageBodyWriter<Object>) providers.getMessageBodyWriter(type, generic,
                annotations, mediaType);
        if (writer == null) {
            throw new NotStorable("no MessageBodyWriter writes " + type.getName() + " as " + mediaType, null);
        }
        Bounded out = new Bounded(maxBytes);
        try {
            writer.writeTo(entity, type, generic, annotations, mediaType, new MultivaluedHashMap<>(), out);
        } catch (IOException | RuntimeException e) {
            for (Throwable cause = e; cause != null; cause = cause.getCause()) {
                if (cause instanceof TooLong) {
                    // The writer may have wrapped it in an exception of its own.
                    throw new NotStorable("the response body is longer than " + maxBytes + " bytes ("
                            + io.github.txinbox.http.IdempotentSettings.MAX_RESPONSE_BYTES + ")", null);
                }
            }
            throw new NotStorable("writing " + type.getName() + " as " + mediaType + " failed: " + e, e);
        }
        return new Written(mediaType, out.toByteArray());
    }

    /** The media type the method produces, where it names exactly one; text or bytes for a String or byte[]. */
    private static MediaType produced(Method method, Object entity) throws NotStorable {
        Produces produces = method.getAnnotation(Produces.class);
        if (produces == null) {
            produces = method.getDeclaringClass().getAnnotation(Produces.class);
        }
        if (produces != null) {
            String[] types = String.join(",", produces.value()).split(",");
            if (types.length == 1 && !types[0].isBlank() && !types[0].contains("*")) {
                return MediaType.valueOf(types[0].strip());
            }
        }
        if (entity instanceof String) {
            return MediaType.TEXT_PLAIN_TYPE;
        }
        if (entity instanceof byte[]) {
            return MediaType.APPLICATION_OCTET_STREAM_TYPE;
        }
        throw new NotStorable("the response names no media type and the method does not @Produces exactly one; set "
                + "it with Response.ResponseBuilder.type(...) so that the stored body and its Content-Type agree",
                null);
    }

    /** Thrown by {@link Bounded} past its limit; unchecked, so that it passes through a writer. */
    private static final class TooLong extends RuntimeException {

        private static final long serialVersionUID = 1L;

        TooLong() {
            super(null, null, false, false);
        }
    }

    private static final class Bounded extends ByteArrayOutputStream {

        private final int max;

        Bounded(int max) {
            super(Math.min(max, 8192) + 1);
            this.max = max;
        }

        @Override
        public synchronized void write(int b) {
            if (count + 1 > max) {
                throw new TooLong();
            }
            super.write(b);
        }

        @Override
        public synchronized void write(byte[] b, int off, int len) {
            if (count + len > max) {
                throw new TooLong();
            }
            super.write(b, off, len);
        }
    }
}
