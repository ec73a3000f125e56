package io.github.txinbox;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;

class TableShapeTest {

    private static final String FIT = "scope text COLLATE \"C\" NOT NULL;message_id text COLLATE \"C\" NOT NULL;"
            + "processed_at timestamp with time zone NOT NULL|scope,message_id|i en-US";

    /** The key columns of a table written without {@code COLLATE "C"}. */
    private static final String UNDER_DEFAULT = FIT.replace(" COLLATE \"C\"", " COLLATE \"default\"");

    @Test
    void theShippedTableIsFit() {
        assertEquals(List.of(), TableShape.problems(FIT));
    }

    @Test
    void theResponseColumnsOfInboxHttpAreOtherColumns() {
        String withResponses = FIT.replace("|scope,message_id", ";request_fingerprint bytea;response_status smallint;"
                + "response_headers text COLLATE \"default\";response_body bytea|scope,message_id");
        assertEquals(List.of(), TableShape.problems(withResponses));
    }

    @Test
    void otherColumnsAreTheOwnersBusiness() {
        assertEquals(List.of(), TableShape.problems("scope text COLLATE \"C\" NOT NULL;message_id text COLLATE \"C\" "
                + "NOT NULL;processed_at timestamp with time zone NOT NULL;note character varying(20) COLLATE "
                + "\"default\"|scope,message_id|i en-US"));
    }

    @Test
    void posixIsTheSameCollationAsC() {
        assertEquals(List.of(), TableShape.problems(FIT.replace("\"C\"", "\"POSIX\"")));
    }

    @Test
    void aKeyColumnUnderAnotherCollationSaysWhyBytes() {
        assertEquals(List.of("its column message_id is text COLLATE \"en_US\" NOT NULL, not text COLLATE \"C\" NOT "
                        + "NULL (the key compares bytes, so that no collation library can reorder its index or take "
                        + "two different ids for one)"),
                TableShape.problems(FIT.replace("message_id text COLLATE \"C\"",
                        "message_id text COLLATE \"en_US\"")));
    }

    @Test
    void aKeyColumnUnderALinguisticDefaultSaysWhichItIs() {
        assertEquals(List.of("its column message_id is text COLLATE \"default\" NOT NULL, not text COLLATE \"C\" NOT "
                        + "NULL (the key compares bytes, so that no collation library can reorder its index or take "
                        + "two different ids for one; \"default\" is the database's collation, ICU locale \"en-US\", "
                        + "which does not compare bytes)"),
                TableShape.problems(FIT.replace("message_id text COLLATE \"C\"",
                        "message_id text COLLATE \"default\"")));
    }

    @Test
    void aByteWiseDefaultPasses() {
        for (String database : List.of("c C", "c POSIX", "b C", "b C.UTF-8", "b PG_UNICODE_FAST")) {
            assertEquals(List.of(), TableShape.problems(UNDER_DEFAULT.replace("|i en-US", "|" + database)), database);
        }
    }

    @Test
    void aLinguisticDefaultIsRefused() {
        for (String database : List.of("i en-US", "i und", "c en_US.UTF-8", "c C.UTF-8", "c C.utf8")) {
            assertEquals(2, TableShape.problems(UNDER_DEFAULT.replace("|i en-US", "|" + database)).size(), database);
        }
    }

    @Test
    void aMissingTable() {
        assertEquals(List.of("it does not exist"), TableShape.problems(null));
    }

    @Test
    void missingAndWrongColumns() {
        assertEquals(List.of("it has no column message_id (text COLLATE \"C\" NOT NULL)",
                        "its column processed_at is timestamp without time zone NOT NULL, not timestamp with time "
                                + "zone NOT NULL",
                        "its primary key is (scope), not (scope, message_id)"),
                TableShape.problems("scope text COLLATE \"C\" NOT NULL;"
                        + "processed_at timestamp without time zone NOT NULL|scope|c C"));
    }

    @Test
    void aNullableColumnAndNoPrimaryKey() {
        assertEquals(List.of("its column scope is text COLLATE \"C\", not text COLLATE \"C\" NOT NULL",
                        "it has no primary key (the inbox needs (scope, message_id))"),
                TableShape.problems("scope text COLLATE \"C\";message_id text COLLATE \"C\" NOT NULL;"
                        + "processed_at timestamp with time zone NOT NULL||c C"));
    }

    @Test
    void anEmptyTable() {
        assertEquals(3 + 1, TableShape.problems("||c C").size());
    }
}
