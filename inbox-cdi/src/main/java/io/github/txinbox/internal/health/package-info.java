/**
 * Looking at the inbox's database: the one look (the table and the old prepared transactions) that the start-up and
 * readiness checks share, where it can run from, and the MicroProfile Health readiness check. Not an API.
 */
package io.github.txinbox.internal.health;
