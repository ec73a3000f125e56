/**
 * The Jakarta REST application of the {@code @Idempotent} tests: an order endpoint on a CDI bean with
 * {@code @Transactional} and one on a stateless session bean, whose behaviour a request header chooses, and a response
 * filter that stops the server after the commit, before the response is sent.
 */
package io.github.txinbox.it.http;
