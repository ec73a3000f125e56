package io.github.txinbox;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;

class TableShapeTest {

    private static final String FIT = "scope text COLLATE \"C\" NOT NULL;message_id text COLLATE \"C\" NOT NULL;"
            + "processed_at timestamp with time zone NOT NULL|scope,message_id";

    @Test
    void theShippedTableIsFit() {
        assertEquals(List.of(), TableShape.problems(FIT));
    }

    @Test
    void otherColumnsAreTheOwnersBusiness() {
        assertEquals(List.of(), TableShape.problems("scope text COLLATE \"C\" NOT NULL;message_id text COLLATE \"C\" "
                + "NOT NULL;processed_at timestamp with time zone NOT NULL;note character varying(20) COLLATE "
                + "\"default\"|scope,message_id"));
    }

    @Test
    void posixIsTheSameCollationAsC() {
        assertEquals(List.of(), TableShape.problems(FIT.replace("\"C\"", "\"POSIX\"")));
    }

    @Test
    void aKeyColumnUnderAnotherCollationSaysWhyBytes() {
        assertEquals(List.of("its column message_id is text COLLATE \"default\" NOT NULL, not text COLLATE \"C\" NOT "
                        + "NULL (the key compares bytes, so that no collation library can reorder its index or take "
                        + "two different ids for one)"),
                TableShape.problems(FIT.replace("message_id text COLLATE \"C\"",
                        "message_id text COLLATE \"default\"")));
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
                        + "processed_at timestamp without time zone NOT NULL|scope"));
    }

    @Test
    void aNullableColumnAndNoPrimaryKey() {
        assertEquals(List.of("its column scope is text COLLATE \"C\", not text COLLATE \"C\" NOT NULL",
                        "it has no primary key (the inbox needs (scope, message_id))"),
                TableShape.problems("scope text COLLATE \"C\";message_id text COLLATE \"C\" NOT NULL;"
                        + "processed_at timestamp with time zone NOT NULL|"));
    }

    @Test
    void anEmptyTable() {
        assertEquals(3 + 1, TableShape.problems("|").size());
    }
}
