/**
 * {@link io.github.txinbox.http.Idempotent @Idempotent} for Jakarta REST resource methods: a request's
 * {@code Idempotency-Key} claimed as a marker in the request's JTA transaction, and its response stored beside the
 * marker to be replayed for a retry; the DDL of the columns it stores the response in
 * ({@link io.github.txinbox.http.ResponseSchema}). Built on the public API of inbox-cdi, which it needs beside it.
 */
package io.github.txinbox.http;
