package io.github.txinbox.internal.binding;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.github.txinbox.Inbox;
import io.github.txinbox.InboxConflictException;
import io.github.txinbox.InboxEvent;
import io.github.txinbox.InboxMarkerHeldException;
import io.github.txinbox.InboxOutcome;
import io.github.txinbox.InboxRepository;
import io.github.txinbox.InboxResult;
import io.github.txinbox.InboxRetryException;
import io.github.txinbox.InboxSettings;
import io.github.txinbox.internal.fakes.FiredEvents;
import io.github.txinbox.internal.fakes.TestInvocation;
import io.github.txinbox.internal.fakes.TestTransaction;
import jakarta.jms.JMSException;
import jakarta.jms.Message;
import jakarta.persistence.PersistenceException;
import jakarta.transaction.Status;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.EnumSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The {@link Inbox @Inbox} result rules, row by row, without a container: what a call of one message, or of a batch of
 * Kafka records, returns or throws, whether it leaves its transaction marked for rollback, and what it reports once
 * the transaction has ended, for each thing a method and its claim can do, in each kind of transaction a binding can
 * name. The interceptor runs
 * against a registry, an invocation, a repository and an event of this test's making; what only a container shows
 * (which transaction a server really begins, the broker's redelivery) stays in the integration tests.
 *
 * <p>The kinds of transaction: {@code CALLERS} (a message-driven bean, a {@code MANDATORY} session bean method),
 * {@code NOTED_SAME} and {@code NOTED_OTHER} (a CDI bean whose caller's transaction was noted, and is or is not the
 * call's), {@code NOT_NOTED} (a CDI bean whose entry was not noted), {@code UNKNOWN} (a session bean that begins its
 * own). Only the first two are known to be the caller's: there a call whose transaction will not commit may return.
 */
class InboxResultRulesTest {

    private static final String METHOD = "com.example.Orders.onMessage";
    private static final String SCOPE = "orders";
    private static final String ID = "ID:order-1";

    /** What the method and its claim do. */
    enum Behaviour {
        /** The method returns; {@code void}, or {@link InboxResult#processed()}. */
        PROCESSES,
        /** The method returns {@link InboxResult#skipped}. */
        SKIPS,
        /** The claim finds a committed marker. */
        DUPLICATE,
        /** The method returns {@link InboxResult#retry}. */
        RETURNS_RETRY,
        /** The method throws {@link InboxRetryException}. */
        THROWS_RETRY,
        /** The claim meets a marker held past the bound. */
        CLAIM_HELD,
        /** The claim conflicts with a concurrent transaction (SQLSTATE 40001). */
        CLAIM_CONFLICTS,
        /** The claim's statement fails otherwise. */
        CLAIM_FAILS,
        /** The method throws. */
        THROWS,
        /** The method returns {@link InboxResult#duplicate()}, which only the inbox may. */
        RETURNS_DUPLICATE,
        /** The message has no id. */
        NO_ID,
        /** Reading the id throws. */
        ID_UNREADABLE,
        /** The method marks its transaction for rollback, then returns. */
        MARKS_ROLLBACK
    }

    /** The rows whose method runs: in the others the inbox answers before it (no id, a duplicate, a failed claim). */
    private static final Set<Behaviour> INVOKED = EnumSet.of(Behaviour.PROCESSES, Behaviour.SKIPS,
            Behaviour.RETURNS_RETRY, Behaviour.THROWS_RETRY, Behaviour.THROWS, Behaviour.RETURNS_DUPLICATE,
            Behaviour.MARKS_ROLLBACK);

    /** The kinds of transaction, as the class comment says. */
    enum Kind {
        CALLERS, NOTED_SAME, NOTED_OTHER, NOT_NOTED, UNKNOWN
    }

    @ParameterizedTest(name = "{0} in {1}, returning {2}: {4}, marked {5}, reported {6}")
    @CsvSource(delimiter = '|', textBlock = """
            # behaviour       | kind        | returns | rethrow | the call                          | marked | reported
            PROCESSES         | CALLERS     | void    | false   | returns nothing                   | false  | PROCESSED
            PROCESSES         | NOTED_SAME  | void    | false   | returns nothing                   | false  | PROCESSED
            PROCESSES         | NOTED_OTHER | void    | false   | returns nothing                   | false  | PROCESSED
            PROCESSES         | NOT_NOTED   | void    | false   | returns nothing                   | false  | PROCESSED
            PROCESSES         | UNKNOWN     | void    | false   | returns nothing                   | false  | PROCESSED
            PROCESSES         | CALLERS     | result  | false   | returns PROCESSED                 | false  | PROCESSED
            PROCESSES         | UNKNOWN     | result  | false   | returns PROCESSED                 | false  | PROCESSED
            SKIPS             | CALLERS     | result  | false   | returns SKIPPED                   | false  | SKIPPED
            SKIPS             | NOTED_SAME  | result  | false   | returns SKIPPED                   | false  | SKIPPED
            SKIPS             | NOTED_OTHER | result  | false   | returns SKIPPED                   | false  | SKIPPED
            SKIPS             | NOT_NOTED   | result  | false   | returns SKIPPED                   | false  | SKIPPED
            SKIPS             | UNKNOWN     | result  | false   | returns SKIPPED                   | false  | SKIPPED
            DUPLICATE         | CALLERS     | void    | false   | returns nothing                   | false  | DUPLICATE
            DUPLICATE         | NOTED_SAME  | void    | false   | returns nothing                   | false  | DUPLICATE
            DUPLICATE         | NOTED_OTHER | void    | false   | returns nothing                   | false  | DUPLICATE
            DUPLICATE         | NOT_NOTED   | void    | false   | returns nothing                   | false  | DUPLICATE
            DUPLICATE         | UNKNOWN     | void    | false   | returns nothing                   | false  | DUPLICATE
            DUPLICATE         | CALLERS     | result  | false   | returns DUPLICATE                 | false  | DUPLICATE
            DUPLICATE         | UNKNOWN     | result  | false   | returns DUPLICATE                 | false  | DUPLICATE
            RETURNS_RETRY     | CALLERS     | result  | false   | returns RETRY                     | true   | RETRY
            RETURNS_RETRY     | NOTED_SAME  | result  | false   | returns RETRY                     | true   | RETRY
            RETURNS_RETRY     | NOTED_OTHER | result  | false   | throws InboxRetryException        | true   | RETRY
            RETURNS_RETRY     | NOT_NOTED   | result  | false   | throws InboxRetryException        | true   | RETRY
            RETURNS_RETRY     | UNKNOWN     | result  | false   | throws InboxRetryException        | true   | RETRY
            RETURNS_RETRY     | CALLERS     | result  | true    | throws InboxRetryException        | true   | RETRY
            THROWS_RETRY      | CALLERS     | void    | false   | returns nothing                   | true   | RETRY
            THROWS_RETRY      | NOTED_SAME  | void    | false   | returns nothing                   | true   | RETRY
            THROWS_RETRY      | NOTED_OTHER | void    | false   | throws InboxRetryException        | true   | RETRY
            THROWS_RETRY      | NOT_NOTED   | void    | false   | throws InboxRetryException        | true   | RETRY
            THROWS_RETRY      | UNKNOWN     | void    | false   | throws InboxRetryException        | true   | RETRY
            THROWS_RETRY      | CALLERS     | void    | true    | throws InboxRetryException        | true   | RETRY
            THROWS_RETRY      | NOTED_SAME  | void    | true    | throws InboxRetryException        | true   | RETRY
            THROWS_RETRY      | CALLERS     | result  | false   | returns RETRY                     | true   | RETRY
            CLAIM_HELD        | CALLERS     | void    | false   | returns nothing                   | true   | HELD
            CLAIM_HELD        | NOTED_SAME  | void    | false   | returns nothing                   | true   | HELD
            CLAIM_HELD        | NOTED_OTHER | void    | false   | throws InboxRetryException        | true   | HELD
            CLAIM_HELD        | NOT_NOTED   | void    | false   | throws InboxRetryException        | true   | HELD
            CLAIM_HELD        | UNKNOWN     | void    | false   | throws InboxRetryException        | true   | HELD
            CLAIM_HELD        | CALLERS     | result  | false   | returns RETRY                     | true   | HELD
            CLAIM_HELD        | CALLERS     | void    | true    | throws InboxRetryException        | true   | HELD
            CLAIM_CONFLICTS   | CALLERS     | void    | false   | returns nothing                   | true   | RETRY
            CLAIM_CONFLICTS   | NOTED_SAME  | result  | false   | returns RETRY                     | true   | RETRY
            CLAIM_CONFLICTS   | NOTED_OTHER | void    | false   | throws InboxRetryException        | true   | RETRY
            CLAIM_CONFLICTS   | NOT_NOTED   | void    | false   | throws InboxRetryException        | true   | RETRY
            CLAIM_CONFLICTS   | UNKNOWN     | void    | false   | throws InboxRetryException        | true   | RETRY
            CLAIM_FAILS       | CALLERS     | void    | false   | throws PersistenceException       | true   | FAILURE
            CLAIM_FAILS       | NOTED_SAME  | void    | false   | throws PersistenceException       | true   | FAILURE
            CLAIM_FAILS       | NOTED_OTHER | void    | false   | throws PersistenceException       | true   | FAILURE
            CLAIM_FAILS       | NOT_NOTED   | void    | false   | throws PersistenceException       | true   | FAILURE
            CLAIM_FAILS       | UNKNOWN     | void    | false   | throws PersistenceException       | true   | FAILURE
            THROWS            | CALLERS     | void    | false   | throws IllegalStateException      | true   | FAILURE
            THROWS            | NOTED_SAME  | void    | false   | throws IllegalStateException      | true   | FAILURE
            THROWS            | NOTED_OTHER | void    | false   | throws IllegalStateException      | true   | FAILURE
            THROWS            | NOT_NOTED   | void    | false   | throws IllegalStateException      | true   | FAILURE
            THROWS            | UNKNOWN     | void    | false   | throws IllegalStateException      | true   | FAILURE
            THROWS            | CALLERS     | result  | false   | throws IllegalStateException      | true   | FAILURE
            RETURNS_DUPLICATE | CALLERS     | result  | false   | throws IllegalStateException      | true   | FAILURE
            RETURNS_DUPLICATE | NOTED_SAME  | result  | false   | throws IllegalStateException      | true   | FAILURE
            RETURNS_DUPLICATE | NOTED_OTHER | result  | false   | throws IllegalStateException      | true   | FAILURE
            RETURNS_DUPLICATE | NOT_NOTED   | result  | false   | throws IllegalStateException      | true   | FAILURE
            RETURNS_DUPLICATE | UNKNOWN     | result  | false   | throws IllegalStateException      | true   | FAILURE
            NO_ID             | CALLERS     | void    | false   | throws MissingMessageIdException  | true   | MISSING_ID
            NO_ID             | NOTED_SAME  | void    | false   | throws MissingMessageIdException  | true   | MISSING_ID
            NO_ID             | NOTED_OTHER | void    | false   | throws MissingMessageIdException  | true   | MISSING_ID
            NO_ID             | NOT_NOTED   | void    | false   | throws MissingMessageIdException  | true   | MISSING_ID
            NO_ID             | UNKNOWN     | void    | false   | throws MissingMessageIdException  | true   | MISSING_ID
            NO_ID             | CALLERS     | result  | false   | throws MissingMessageIdException  | true   | MISSING_ID
            ID_UNREADABLE     | CALLERS     | void    | false   | throws JMSException               | true   | FAILURE
            ID_UNREADABLE     | NOTED_SAME  | void    | false   | throws JMSException               | true   | FAILURE
            ID_UNREADABLE     | NOTED_OTHER | void    | false   | throws JMSException               | true   | FAILURE
            ID_UNREADABLE     | NOT_NOTED   | void    | false   | throws JMSException               | true   | FAILURE
            ID_UNREADABLE     | UNKNOWN     | void    | false   | throws JMSException               | true   | FAILURE
            MARKS_ROLLBACK    | CALLERS     | void    | false   | returns nothing                   | true   | ROLLED_BACK
            MARKS_ROLLBACK    | NOTED_SAME  | void    | false   | returns nothing                   | true   | ROLLED_BACK
            MARKS_ROLLBACK    | NOTED_OTHER | void    | false   | throws InboxRolledBackException   | true   | ROLLED_BACK
            MARKS_ROLLBACK    | NOT_NOTED   | void    | false   | throws InboxRolledBackException   | true   | ROLLED_BACK
            MARKS_ROLLBACK    | UNKNOWN     | void    | false   | throws InboxRolledBackException   | true   | ROLLED_BACK
            MARKS_ROLLBACK    | CALLERS     | result  | false   | returns PROCESSED                 | true   | ROLLED_BACK
            MARKS_ROLLBACK    | UNKNOWN     | result  | false   | throws InboxRolledBackException   | true   | ROLLED_BACK
            """)
    void aCallEndsAsTheRulesSay(Behaviour behaviour, Kind kind, String returns, boolean rethrow, String call,
            boolean marked, InboxOutcome reported) throws Exception {
        Call made = new Call(behaviour, kind, "result".equals(returns), rethrow);
        Object outcome = made.run();
        expect(call, outcome);
        assertEquals(marked, made.transaction.marked(),
                "whether the call left its transaction marked for rollback");
        assertEquals(List.of(), made.events.fired(), "an event before the transaction ended");
        made.transaction.end();
        InboxEvent event = made.events.only();
        assertEquals(reported, event.outcome());
        assertEquals(SCOPE, event.scope());
        assertEquals(METHOD, event.method());
        if (behaviour == Behaviour.NO_ID || behaviour == Behaviour.ID_UNREADABLE) {
            assertNull(event.messageId(), "an id that could not be read");
        } else {
            assertEquals(ID, event.messageId());
        }
        assertEquals(INVOKED.contains(behaviour), made.invocation.proceeded(), "whether the method was invoked");
    }

    @ParameterizedTest(name = "{0}, returning {1}, decided to commit, but the commit fails: {2}")
    @CsvSource(delimiter = '|', textBlock = """
            CALLERS     | void   | returns nothing
            NOTED_SAME  | result | returns PROCESSED
            NOTED_OTHER | void   | returns nothing
            UNKNOWN     | result | returns PROCESSED
            """)
    void aDecisionToCommitWhoseCommitFailsIsReportedRolledBack(Kind kind, String returns, String call)
            throws Exception {
        Call made = new Call(Behaviour.PROCESSES, kind, "result".equals(returns), false);
        expect(call, made.run());
        made.transaction.endRolledBack();
        InboxEvent event = made.events.only();
        assertEquals(InboxOutcome.ROLLED_BACK, event.outcome());
        assertEquals("PROCESSED decided, but the transaction did not commit (status 4): its commit failed, or it "
                + "timed out", event.reason());
    }

    @ParameterizedTest(name = "{0} in {1}: the transaction times out while the method runs: {2}, reported {3}")
    @CsvSource(delimiter = '|', textBlock = """
            PROCESSES | CALLERS     | returns nothing                 | ROLLED_BACK
            PROCESSES | NOTED_SAME  | returns nothing                 | ROLLED_BACK
            PROCESSES | NOTED_OTHER | throws InboxRolledBackException | ROLLED_BACK
            PROCESSES | NOT_NOTED   | throws InboxRolledBackException | ROLLED_BACK
            PROCESSES | UNKNOWN     | throws InboxRolledBackException | ROLLED_BACK
            THROWS    | CALLERS     | throws IllegalStateException    | FAILURE
            THROWS    | UNKNOWN     | throws IllegalStateException    | FAILURE
            """)
    void aTransactionThatEndsBeforeTheDecisionIsReportedOnceDecided(Behaviour behaviour, Kind kind, String call,
            InboxOutcome reported) throws Exception {
        Call made = new Call(behaviour, kind, false, false);
        made.timesOut = true;
        Object outcome = made.run();
        expect(call, outcome);
        // The transaction ended on the timeout's thread while the method ran: the decision reports at once.
        InboxEvent event = made.events.only();
        assertEquals(reported, event.outcome());
        if (reported == InboxOutcome.ROLLED_BACK) {
            assertEquals("PROCESSED decided, but the method returned with its transaction marked for rollback",
                    event.reason());
        }
    }

    /** What a batch's records are and what its method and claim do, for the batch rows. */
    enum Batch {
        /** Three new records, a b c. */
        ALL_NEW,
        /** a and c new, b processed before. */
        ONE_PROCESSED_BEFORE,
        /** a twice, then b: the second a is a duplicate of the first. */
        REPEATED_ID,
        /** a b c, all processed before: the method is not invoked. */
        NONE_NEW,
        /** a b c new; the method throws. */
        THROWS,
        /** a b c new; the method throws {@link InboxRetryException}. */
        THROWS_RETRY,
        /** a, a record without a key, c: nothing is claimed. */
        NO_ID_IN_THE_MIDDLE,
        /** a b c; the claim meets a marker held past the bound. */
        CLAIM_HELD,
        /** The batch parameter is null. */
        NULL_BATCH
    }

    @ParameterizedTest(name = "a batch, {0}, in {1}: {2}, invoked with {3}, marked {4}, reported {5}")
    @CsvSource(delimiter = '|', textBlock = """
            # batch               | kind        | the call                         | invoked with | marked | reported
            ALL_NEW               | CALLERS     | returns nothing                  | a b c        | false  | PROCESSED PROCESSED PROCESSED
            ALL_NEW               | NOTED_OTHER | returns nothing                  | a b c        | false  | PROCESSED PROCESSED PROCESSED
            ALL_NEW               | UNKNOWN     | returns nothing                  | a b c        | false  | PROCESSED PROCESSED PROCESSED
            ONE_PROCESSED_BEFORE  | CALLERS     | returns nothing                  | a c          | false  | PROCESSED DUPLICATE PROCESSED
            ONE_PROCESSED_BEFORE  | UNKNOWN     | returns nothing                  | a c          | false  | PROCESSED DUPLICATE PROCESSED
            REPEATED_ID           | CALLERS     | returns nothing                  | a b          | false  | PROCESSED DUPLICATE PROCESSED
            NONE_NEW              | CALLERS     | returns nothing                  | -            | false  | DUPLICATE DUPLICATE DUPLICATE
            NONE_NEW              | UNKNOWN     | returns nothing                  | -            | false  | DUPLICATE DUPLICATE DUPLICATE
            THROWS                | CALLERS     | throws IllegalStateException     | a b c        | true   | ROLLED_BACK ROLLED_BACK ROLLED_BACK
            THROWS                | NOTED_SAME  | throws IllegalStateException     | a b c        | true   | ROLLED_BACK ROLLED_BACK ROLLED_BACK
            THROWS                | UNKNOWN     | throws IllegalStateException     | a b c        | true   | ROLLED_BACK ROLLED_BACK ROLLED_BACK
            THROWS_RETRY          | CALLERS     | returns nothing                  | a b c        | true   | ROLLED_BACK ROLLED_BACK ROLLED_BACK
            THROWS_RETRY          | NOTED_SAME  | returns nothing                  | a b c        | true   | ROLLED_BACK ROLLED_BACK ROLLED_BACK
            THROWS_RETRY          | NOTED_OTHER | throws InboxRetryException       | a b c        | true   | ROLLED_BACK ROLLED_BACK ROLLED_BACK
            THROWS_RETRY          | UNKNOWN     | throws InboxRetryException       | a b c        | true   | ROLLED_BACK ROLLED_BACK ROLLED_BACK
            NO_ID_IN_THE_MIDDLE   | CALLERS     | throws MissingMessageIdException | -            | true   | ROLLED_BACK MISSING_ID ROLLED_BACK
            NO_ID_IN_THE_MIDDLE   | UNKNOWN     | throws MissingMessageIdException | -            | true   | ROLLED_BACK MISSING_ID ROLLED_BACK
            CLAIM_HELD            | CALLERS     | returns nothing                  | -            | true   | ROLLED_BACK ROLLED_BACK ROLLED_BACK
            CLAIM_HELD            | NOTED_OTHER | throws InboxRetryException       | -            | true   | ROLLED_BACK ROLLED_BACK ROLLED_BACK
            CLAIM_HELD            | UNKNOWN     | throws InboxRetryException       | -            | true   | ROLLED_BACK ROLLED_BACK ROLLED_BACK
            NULL_BATCH            | CALLERS     | throws MissingMessageIdException | -            | true   | MISSING_ID
            NULL_BATCH            | UNKNOWN     | throws MissingMessageIdException | -            | true   | MISSING_ID
            """)
    void aBatchEndsAsTheRulesSayForEachRecord(Batch batch, Kind kind, String call, String invokedWith, boolean marked,
            String reported) {
        BatchCall made = new BatchCall(batch, kind);
        expect(call, made.run());
        assertEquals(invokedWith, made.invokedWith, "the records the method was invoked with");
        assertEquals(marked, made.transaction.marked(),
                "whether the call left its transaction marked for rollback");
        assertEquals(List.of(), made.events.fired(), "an event before the transaction ended");
        made.transaction.end();
        assertEquals(reported, String.join(" ", made.events.fired().stream().map(e -> e.outcome().name()).toList()));
        for (InboxEvent event : made.events.fired()) {
            if (event.outcome() == InboxOutcome.ROLLED_BACK) {
                assertTrue(event.reason().startsWith("rolled back with its batch ("), event.reason());
            }
        }
        if (batch == Batch.NO_ID_IN_THE_MIDDLE) {
            assertEquals(Arrays.asList("a", null, "c"), made.events.fired().stream().map(InboxEvent::messageId).toList());
            assertTrue(made.events.fired().get(0).reason().startsWith("rolled back with its batch (MISSING_ID): "),
                    made.events.fired().get(0).reason());
        }
    }

    @ParameterizedTest(name = "a batch of new records in {0}, decided to commit, but the commit fails")
    @CsvSource({"CALLERS", "UNKNOWN"})
    void aBatchWhoseCommitFailsReportsEachRecordRolledBack(Kind kind) {
        BatchCall made = new BatchCall(Batch.ALL_NEW, kind);
        expect("returns nothing", made.run());
        made.transaction.endRolledBack();
        assertEquals(List.of(InboxOutcome.ROLLED_BACK, InboxOutcome.ROLLED_BACK, InboxOutcome.ROLLED_BACK),
                made.events.fired().stream().map(InboxEvent::outcome).toList());
        assertEquals(List.of("a", "b", "c"), made.events.fired().stream().map(InboxEvent::messageId).toList());
        assertTrue(made.events.fired().get(0).reason().startsWith("PROCESSED decided, but the transaction did not "
                + "commit"), made.events.fired().get(0).reason());
    }

    /** Checks the call's result against a cell of the table: {@code returns nothing|<outcome>}, {@code throws <type>}. */
    private static void expect(String call, Object outcome) {
        if (call.equals("returns nothing")) {
            assertNull(outcome, "the call's return value");
        } else if (call.startsWith("returns ")) {
            InboxResult result = assertInstanceOf(InboxResult.class, outcome, "the call's return value");
            assertEquals(InboxOutcome.valueOf(call.substring("returns ".length())), result.outcome());
        } else if (call.startsWith("throws ")) {
            Throwable thrown = assertInstanceOf(Throwable.class, outcome, "what the call threw");
            assertEquals(call.substring("throws ".length()), thrown.getClass().getSimpleName(),
                    () -> "what the call threw: " + thrown);
        } else {
            fail("a cell of the table that says nothing: " + call);
        }
    }

    /**
     * What every row's call is made of: its binding's kind of transaction, the transaction, the invocation (noted as
     * the row's kind says), the events, and the interceptor.
     */
    private abstract static class Fixture {

        final TestTransaction transaction = new TestTransaction();
        final FiredEvents events = new FiredEvents();
        TestInvocation invocation;
        InboxInterceptor interceptor;
        InboxBinding binding;

        /** The kind of transaction a binding names for a row's kind. */
        static InboxBinding.Transaction transactionOf(Kind kind) {
            return switch (kind) {
                case CALLERS -> InboxBinding.Transaction.CALLERS;
                case NOTED_SAME, NOTED_OTHER, NOT_NOTED -> InboxBinding.Transaction.NOTED;
                case UNKNOWN -> InboxBinding.Transaction.UNKNOWN;
            };
        }

        /** Sets the call up: notes the caller's transaction as the row's kind says, and makes the interceptor. */
        void setUp(InboxBinding rowBinding, Kind kind, Object parameter, TestInvocation.Body body,
                InboxRepository repository) {
            binding = rowBinding;
            invocation = new TestInvocation(ON_MESSAGE, parameter, body);
            if (kind == Kind.NOTED_SAME) {
                TransactionBoundary.remember(invocation.getContextData(), transaction.key());
            } else if (kind == Kind.NOTED_OTHER) {
                TransactionBoundary.remember(invocation.getContextData(), null);
            }
            interceptor = new InboxInterceptor(InboxSettings.DEFAULTS, repository, transaction, events);
        }

        /** Runs the call; returns what it returned, or what it threw. */
        Object run() {
            try {
                return interceptor.intercept(binding, invocation, System.nanoTime());
            } catch (Exception e) {
                return e;
            }
        }
    }

    /** The method the rows' invocations name: {@code onMessage(Message)}. */
    private static final Method ON_MESSAGE = onMessage();

    private static Method onMessage() {
        try {
            return jakarta.jms.MessageListener.class.getMethod("onMessage", Message.class);
        } catch (NoSuchMethodException e) {
            throw new AssertionError(e);
        }
    }

    /** One call of an {@code @Inbox} method, set up for a row: the binding, the transaction, the claim, the method. */
    private static final class Call extends Fixture {

        boolean timesOut;

        Call(Behaviour behaviour, Kind kind, boolean returnsResult, boolean rethrow) throws Exception {
            setUp(new InboxBinding(METHOD, SCOPE, MessageIdSource.JmsMessageId.of(METHOD, 0, Inbox.JMS_MESSAGE_ID),
                    returnsResult, rethrow, transactionOf(kind), false), kind, message(behaviour),
                    () -> method(behaviour, returnsResult), repository(behaviour));
        }

        /** The method's body for the row. */
        private Object method(Behaviour row, boolean returnsResult) throws Exception {
            if (timesOut) {
                transaction.timeOut();
            }
            switch (row) {
                case SKIPS:
                    return InboxResult.skipped("not for this consumer");
                case RETURNS_RETRY:
                    return InboxResult.retry("the stock service is down");
                case THROWS_RETRY:
                    throw new InboxRetryException("the stock service is down");
                case THROWS:
                    throw new IllegalStateException("the order is malformed");
                case RETURNS_DUPLICATE:
                    return InboxResult.duplicate();
                case MARKS_ROLLBACK:
                    transaction.setRollbackOnly();
                    return returnsResult ? InboxResult.processed() : null;
                default:
                    return returnsResult ? InboxResult.processed() : null;
            }
        }

        private InboxRepository repository(Behaviour row) {
            return new InboxRepository() {
                @Override
                public boolean claim(String scope, String messageId) {
                    assertEquals(SCOPE, scope);
                    assertEquals(ID, messageId);
                    assertEquals(Status.STATUS_ACTIVE, transaction.status(), "a claim outside an active transaction");
                    return switch (row) {
                        case DUPLICATE -> false;
                        case CLAIM_HELD -> throw new InboxMarkerHeldException("another transaction held the marker",
                                new PersistenceException("ERROR: canceling statement due to lock timeout"));
                        case CLAIM_CONFLICTS -> throw new InboxConflictException("the claim conflicted", "40001",
                                new PersistenceException("ERROR: could not serialize access"));
                        case CLAIM_FAILS -> throw new PersistenceException("ERROR: relation \"inbox\" does not exist");
                        default -> true;
                    };
                }
            };
        }

        private static Message message(Behaviour row) {
            return (Message) Proxy.newProxyInstance(Message.class.getClassLoader(), new Class<?>[] {Message.class},
                    (proxy, method, arguments) -> {
                        if (!method.getName().equals("getJMSMessageID")) {
                            throw new UnsupportedOperationException(method.getName());
                        }
                        if (row == Behaviour.ID_UNREADABLE) {
                            throw new JMSException("the session is closed");
                        }
                        return row == Behaviour.NO_ID ? null : ID;
                    });
        }
    }

    /** One call of an {@code @Inbox} method taking a batch of Kafka records, keyed a, b, c unless the row says. */
    private static final class BatchCall extends Fixture {

        String invokedWith = "-";

        BatchCall(Batch batch, Kind kind) {
            List<String> keys = switch (batch) {
                case REPEATED_ID -> Arrays.asList("a", "a", "b");
                case NO_ID_IN_THE_MIDDLE -> Arrays.asList("a", null, "c");
                default -> List.of("a", "b", "c");
            };
            List<ConsumerRecord<String, String>> records = new ArrayList<>();
            for (int offset = 0; offset < keys.size(); offset++) {
                records.add(new ConsumerRecord<>("orders", 0, offset, keys.get(offset), "{}"));
            }
            setUp(new InboxBinding(METHOD, SCOPE, new MessageIdSource.KafkaRecordId(METHOD, 0,
                    Inbox.KAFKA_RECORD_KEY), false, false, transactionOf(kind), true), kind,
                    batch == Batch.NULL_BATCH ? null : records, () -> {
                        List<?> given = (List<?>) invocation.getParameters()[0];
                        invokedWith = String.join(" ", given.stream()
                                .map(r -> ((ConsumerRecord<?, ?>) r).key().toString()).toList());
                        return switch (batch) {
                            case THROWS -> throw new IllegalStateException("an order of the batch is malformed");
                            case THROWS_RETRY -> throw new InboxRetryException("the stock service is down");
                            default -> null;
                        };
                    }, new InboxRepository() {
                        @Override
                        public Set<String> claimAll(String scope, Collection<String> messageIds) {
                            assertEquals(SCOPE, scope);
                            assertEquals(Status.STATUS_ACTIVE, transaction.status(),
                                    "a claim outside an active transaction");
                            if (batch == Batch.CLAIM_HELD) {
                                throw new InboxMarkerHeldException("another transaction held a marker",
                                        new PersistenceException("ERROR: canceling statement due to lock timeout"));
                            }
                            Set<String> claimed = new LinkedHashSet<>(messageIds);
                            if (batch == Batch.ONE_PROCESSED_BEFORE) {
                                claimed.remove("b");
                            } else if (batch == Batch.NONE_NEW) {
                                claimed.clear();
                            }
                            return claimed;
                        }
                    });
        }
    }
}
