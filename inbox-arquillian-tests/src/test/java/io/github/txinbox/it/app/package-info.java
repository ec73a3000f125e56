/**
 * What every test deployment carries besides the test class: the datasource, a test entity, and helpers to reach
 * the database beside the container (plain JDBC) and to call the inbox under given transaction attributes.
 */
package io.github.txinbox.it.app;
