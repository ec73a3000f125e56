/** The sample's REST API: send a demo batch of orders, and see invoices, markers and counters as JSON. */
package io.github.txinbox.sample.web;
