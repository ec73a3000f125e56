package io.github.txinbox.http.internal;

import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;

/**
 * The SHA-256 digest of a request's method, target (path and query) and body, taken while the body is read: the
 * request's entity stream is replaced by this one, which digests every byte that Jakarta REST reads from it, and
 * {@link #finish()} reads (and digests) what it left. Nothing is buffered.
 */
public final class RequestFingerprint extends FilterInputStream {

    /** The request property (a servlet request attribute) that holds a request's fingerprint. */
    public static final String PROPERTY = RequestFingerprint.class.getName();

    private final MessageDigest digest;
    /** Whether the body has been read to its end (by the reader, or by this stream before it closed). */
    private boolean ended;
    private byte[] finished;

    /**
     * Starts the digest of a request.
     *
     * @param method the HTTP method
     * @param target the request's path and query, as sent
     * @param body   the request's entity stream
     */
    public RequestFingerprint(String method, String target, InputStream body) {
        super(body);
        try {
            digest = MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("Every Java platform has SHA-256", e);
        }
        digest.update((method + ' ' + target + '\n').getBytes(StandardCharsets.UTF_8));
    }

    @Override
    public int read() throws IOException {
        int b = super.read();
        if (b >= 0 && finished == null) {
            digest.update((byte) b);
        }
        ended |= b < 0;
        return b;
    }

    @Override
    public int read(byte[] buffer, int offset, int length) throws IOException {
        int read = super.read(buffer, offset, length);
        if (read > 0 && finished == null) {
            digest.update(buffer, offset, read);
        }
        ended |= read < 0;
        return read;
    }

    @Override
    public long skip(long n) throws IOException {
        // Skipped bytes count too.
        byte[] buffer = new byte[8192];
        long skipped = 0;
        while (skipped < n) {
            int read = read(buffer, 0, (int) Math.min(buffer.length, n - skipped));
            if (read < 0) {
                break;
            }
            skipped += read;
        }
        return skipped;
    }

    @Override
    public boolean markSupported() {
        return false;
    }

    @Override
    public void close() throws IOException {
        // Whatever the reader left is part of the body, and cannot be read once the stream is closed.
        drain();
        ended = true;
        super.close();
    }

    /**
     * Reads what is left of the body and returns the digest; later calls return the same.
     *
     * @return the fingerprint, 32 bytes
     * @throws UncheckedIOException when the rest of the body cannot be read
     */
    public synchronized byte[] finish() {
        if (finished == null) {
            try {
                drain();
            } catch (IOException e) {
                throw new UncheckedIOException("Could not read the rest of the request body to fingerprint it", e);
            }
            finished = digest.digest();
        }
        return finished.clone();
    }

    private void drain() throws IOException {
        if (ended || finished != null) {
            return;
        }
        byte[] buffer = new byte[8192];
        while (read(buffer, 0, buffer.length) >= 0) {
            // Digested in read.
        }
    }
}
