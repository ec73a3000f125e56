package io.github.txinbox.sample.web;

import jakarta.ws.rs.ApplicationPath;
import jakarta.ws.rs.core.Application;

/** Serves the sample's resources under {@code /sample/api}. */
@ApplicationPath("api")
public class SampleApi extends Application {
}
