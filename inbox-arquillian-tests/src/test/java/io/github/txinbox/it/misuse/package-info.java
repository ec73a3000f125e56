/** Beans that use {@link io.github.txinbox.Inbox @Inbox} wrongly; deploying them must fail. */
package io.github.txinbox.it.misuse;
