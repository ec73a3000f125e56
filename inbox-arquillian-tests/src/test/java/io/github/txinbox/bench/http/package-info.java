/**
 * Item 8's application: two Jakarta REST endpoints that write one invoice in a transaction of their own and answer 201
 * with JSON, and differ only in {@code @Idempotent}.
 */
package io.github.txinbox.bench.http;
