/** The sample's persistence unit and entity, in the EAR's lib/ so that every module of the application sees them. */
package io.github.txinbox.sample.model;
