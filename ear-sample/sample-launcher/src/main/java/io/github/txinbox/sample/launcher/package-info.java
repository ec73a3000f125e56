/** Runs the sample end to end from one command: database, server, deployment, demo batch, outcome table. */
package io.github.txinbox.sample.launcher;
