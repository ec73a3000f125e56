package io.github.txinbox;

import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Objects;

/**
 * A transaction prepared in the inbox's database ({@code PREPARE TRANSACTION}: the database's branch of an XA
 * transaction) and not yet committed or rolled back, as {@code pg_prepared_xacts} lists it. Until it ends it keeps its
 * row locks: one that wrote an inbox marker blocks every redelivery of that message in its claim. The transaction
 * manager's recovery, or an operator, ends it with {@code COMMIT PREPARED} or {@code ROLLBACK PREPARED} and its
 * {@code gid} (docs/guarantees.md, "Recovery after a crash").
 *
 * @param gid      the global transaction id the transaction manager gave the branch
 * @param prepared when it was prepared, on the database clock
 * @param owner    the database role that prepared it
 */
public record PreparedTransaction(String gid, Instant prepared, String owner) {

    /**
     * Checks the components.
     *
     * @throws NullPointerException when one is null
     */
    public PreparedTransaction {
        Objects.requireNonNull(gid, "gid");
        Objects.requireNonNull(prepared, "prepared");
        Objects.requireNonNull(owner, "owner");
    }

    /**
     * Reads one row of {@code Sql.PREPARED_TRANSACTIONS}: the time prepared in microseconds since the epoch, a space,
     * the owner's length in characters (code points, as PostgreSQL counts them), a space, the owner, then the gid.
     */
    static PreparedTransaction ofRow(String row) {
        int first = row.indexOf(' ');
        int second = row.indexOf(' ', first + 1);
        int ownerEnd = row.offsetByCodePoints(second + 1, Integer.parseInt(row.substring(first + 1, second)));
        return new PreparedTransaction(row.substring(ownerEnd),
                Instant.EPOCH.plus(Long.parseLong(row.substring(0, first)), ChronoUnit.MICROS),
                row.substring(second + 1, ownerEnd));
    }

    /**
     * How long it has been prepared at a given time.
     *
     * @param now the time to measure to, such as the database's {@code now()}
     * @return the time since it was prepared; zero when {@code now} is before it
     */
    public Duration age(Instant now) {
        Duration age = Duration.between(prepared, now);
        return age.isNegative() ? Duration.ZERO : age;
    }
}
