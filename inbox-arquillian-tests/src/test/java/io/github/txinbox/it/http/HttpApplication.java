package io.github.txinbox.it.http;

import jakarta.ws.rs.ApplicationPath;
import jakarta.ws.rs.core.Application;

/** The test application's Jakarta REST root, {@code /api}; its resources and providers are found by the scan. */
@ApplicationPath(HttpApplication.ROOT)
public class HttpApplication extends Application {

    /** The path of the application's resources. */
    public static final String ROOT = "api";
}
