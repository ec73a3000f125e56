/** A consumer whose inbox takes its table, key and limits from the application's MicroProfile Config. */
package io.github.txinbox.it.configured;
