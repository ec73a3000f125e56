package io.github.txinbox.sample.launcher;

/** Thrown when the launcher cannot go on; its message is shown to the user as it is, without a stack trace. */
final class LauncherException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    LauncherException(String message) {
        super(message);
    }
}
