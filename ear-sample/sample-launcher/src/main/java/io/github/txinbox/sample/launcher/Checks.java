package io.github.txinbox.sample.launcher;

/** The outcome checks of {@code --check}: each failure is printed when seen, and a count closes the run. */
final class Checks {

    private int passed;
    private int failed;

    /** Records one check; prints it when it fails. */
    void expect(String name, boolean ok, String detail) {
        if (ok) {
            passed++;
        } else {
            failed++;
            System.out.println("CHECK FAILED: " + name + ": " + detail);
        }
    }

    /** Records that an observed value equals the expected one. */
    void expectEqual(String name, long expected, long actual) {
        expect(name, expected == actual, "is " + actual + ", expected " + expected);
    }

    boolean allPassed() {
        return failed == 0;
    }

    /** The closing line, in the form test runners print: {@code sample: 13 passed, 0 failed}. */
    String summary() {
        return "sample: " + passed + " passed, " + failed + " failed";
    }
}
