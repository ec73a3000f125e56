/** The claim benchmark's {@code @Inbox} bean: the interceptors around the claim, and nothing else. */
package io.github.txinbox.bench.claim;
