/**
 * How {@link io.github.txinbox.http.Idempotent @Idempotent} works: the CDI extension that binds and checks every use
 * at deployment, the interceptor and the exchange that apply the rules in the method's transaction, the Jakarta REST
 * feature and filter that fingerprint each request, the reading of its key, the problem details it answers with, and
 * the store of the response beside the marker. Not an API: its types may change at any time.
 */
package io.github.txinbox.http.internal;
