package io.github.txinbox;

import jakarta.transaction.Status;

/** Names the {@link Status} codes, so that errors say "STATUS_NO_TRANSACTION (6)" rather than a bare number. */
final class TransactionStatus {

    private TransactionStatus() {
    }

    static String describe(int status) {
        return name(status) + " (" + status + ")";
    }

    private static String name(int status) {
        return switch (status) {
            case Status.STATUS_ACTIVE -> "STATUS_ACTIVE";
            case Status.STATUS_MARKED_ROLLBACK -> "STATUS_MARKED_ROLLBACK";
            case Status.STATUS_PREPARED -> "STATUS_PREPARED";
            case Status.STATUS_COMMITTED -> "STATUS_COMMITTED";
            case Status.STATUS_ROLLEDBACK -> "STATUS_ROLLEDBACK";
            case Status.STATUS_UNKNOWN -> "STATUS_UNKNOWN";
            case Status.STATUS_NO_TRANSACTION -> "STATUS_NO_TRANSACTION";
            case Status.STATUS_PREPARING -> "STATUS_PREPARING";
            case Status.STATUS_COMMITTING -> "STATUS_COMMITTING";
            case Status.STATUS_ROLLING_BACK -> "STATUS_ROLLING_BACK";
            default -> "an unknown status";
        };
    }
}
