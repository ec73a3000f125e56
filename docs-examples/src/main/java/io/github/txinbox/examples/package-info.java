/**
 * The examples of README.md and docs/, each region between {@code tag::name[]} and {@code end::name[]} shown on a page;
 * compiled by the build so that the pages cannot drift from the API. Not a library: nothing here is published.
 */
package io.github.txinbox.examples;
