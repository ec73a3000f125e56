package io.github.txinbox.http.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.txinbox.Inbox;
import io.github.txinbox.http.Idempotent;
import io.github.txinbox.http.internal.KeyRules;
import jakarta.ejb.Stateless;
import jakarta.ejb.TransactionAttribute;
import jakarta.ejb.TransactionAttributeType;
import jakarta.ejb.TransactionManagement;
import jakarta.ejb.TransactionManagementType;
import jakarta.transaction.Transactional;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.PUT;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.core.Response;
import java.lang.reflect.Method;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

class IdempotentBindingTest {

    interface OrdersApi {
        @POST
        Response create(String body);
    }

    /** 212 bytes: fits 255 alone, not with the 44 a caller's keys add. */
    static final String LONG_SCOPE = "orders-"
            + "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"
            + "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx";

    static class Orders implements OrdersApi {

        @Override
        @Transactional
        @Idempotent
        public Response create(String body) {
            return null;
        }

        @PUT
        @Transactional(Transactional.TxType.REQUIRES_NEW)
        @Idempotent(header = "X-Request-Id", required = false, scope = "orders")
        public Response replace(String body) {
            return null;
        }

        @POST
        @Path("per-caller")
        @Transactional
        @Idempotent(perPrincipal = true, scope = "orders")
        public Response perCaller(String body) {
            return null;
        }

        @POST
        @Path("per-caller-long-scope")
        @Transactional
        @Idempotent(perPrincipal = true, scope = LONG_SCOPE)
        public Response perCallerWithALongScope(String body) {
            return null;
        }

        @POST
        @Idempotent
        public Response withoutTransaction(String body) {
            return null;
        }

        @POST
        @Transactional(Transactional.TxType.MANDATORY)
        @Idempotent
        public Response mandatory(String body) {
            return null;
        }

        @GET
        @Transactional
        @Idempotent
        public Response read() {
            return null;
        }

        @Transactional
        @Idempotent
        public Response notAResource(String body) {
            return null;
        }

        @POST
        @Transactional
        @Idempotent
        public String returnsAString(String body) {
            return null;
        }

        @POST
        @Transactional
        @Idempotent(header = "Idempotency Key")
        public Response badHeader(String body) {
            return null;
        }

        @POST
        @Transactional
        @Idempotent
        @Inbox
        public Response alsoInbox(String body) {
            return null;
        }
    }

    @Stateless
    static class SessionOrders {

        @POST
        @Idempotent
        public Response create(String body) {
            return null;
        }

        @DELETE
        @Idempotent
        @TransactionAttribute(TransactionAttributeType.SUPPORTS)
        public Response supports(String id) {
            return null;
        }
    }

    @Stateless
    @TransactionManagement(TransactionManagementType.BEAN)
    static class BeanManagedOrders {

        @POST
        @Idempotent
        public Response create(String body) {
            return null;
        }
    }

    private static IdempotentBinding.Site site(Class<?> type, String name) {
        Method method = Arrays.stream(type.getDeclaredMethods()).filter(m -> m.getName().equals(name)).findFirst()
                .orElseThrow();
        return new IdempotentBinding.Site(type, method, method.getAnnotation(Idempotent.class), true,
                Arrays.asList(method.getAnnotations()), Arrays.asList(type.getAnnotations()));
    }

    private static List<String> problems(Class<?> type, String name) {
        return IdempotentBinding.problems(site(type, name));
    }

    private static void assertProblem(Class<?> type, String name, String expected) {
        List<String> problems = problems(type, name);
        assertEquals(1, problems.size(), problems.toString());
        assertTrue(problems.get(0).startsWith("@Idempotent on " + type.getName() + "." + name), problems.get(0));
        assertTrue(problems.get(0).contains(expected), problems.get(0));
    }

    @Test
    void aTransactionalResourceMethodBindsWithItsClassAsScopeAndTheDefaultHeader() {
        assertEquals(List.of(), problems(Orders.class, "create"));
        assertEquals(new KeyRules(Orders.class.getName() + ".create", Orders.class.getName(), "Idempotency-Key", true,
                false),
                IdempotentBinding.ofValid(site(Orders.class, "create")));
    }

    @Test
    void itsMembersSetTheHeaderTheScopeAndWhetherTheKeyIsRequired() {
        assertEquals(new KeyRules(Orders.class.getName() + ".replace", "orders", "X-Request-Id", false,
                false),
                IdempotentBinding.ofValid(site(Orders.class, "replace")));
    }

    @Test
    void keysPerCallerAreStoredUnderTheScopeAndTheHashOfTheCallersName() throws Exception {
        KeyRules rules = IdempotentBinding.ofValid(site(Orders.class, "perCaller"));
        assertTrue(rules.perPrincipal());
        assertEquals("orders", rules.scope());
        String expected = "orders~" + java.util.Base64.getUrlEncoder().withoutPadding().encodeToString(
                java.security.MessageDigest.getInstance("SHA-256").digest("alice@example.com".getBytes(
                        java.nio.charset.StandardCharsets.UTF_8)));
        assertEquals(expected, rules.scopeOf("alice@example.com"));
        assertEquals("orders".length() + Idempotent.PRINCIPAL_SUFFIX_LENGTH, rules.scopeOf("alice@example.com")
                .length());
        assertEquals(rules.scopeOf("alice@example.com").length(), rules.scopeOf("b").length());
        assertEquals(rules.scopeOf("b").length(), rules.longestScope().length());
        assertTrue(!rules.scopeOf("alice").equals(rules.scopeOf("Alice")), "two callers share a scope");
        // A name that is not ASCII is hashed as UTF-8, and never appears in the scope.
        assertTrue(!rules.scopeOf("zoë").contains("zo"), rules.scopeOf("zoë"));
        KeyRules shared = IdempotentBinding.ofValid(site(Orders.class, "create"));
        assertEquals(shared.scope(), shared.longestScope());
    }

    @Test
    void aScopeThatLeavesNoRoomForTheCallersPartFailsTheDeployment() {
        assertEquals(List.of(), problems(Orders.class, "perCaller"));
        assertProblem(Orders.class, "perCallerWithALongScope", "keeps keys per caller, whose scope is the scope and "
                + "44 bytes more; its scope '" + LONG_SCOPE + "' is longer than the 211 bytes that leaves");
    }

    @Test
    void aStatelessBeanInItsDefaultTransactionBinds() {
        assertEquals(List.of(), problems(SessionOrders.class, "create"));
    }

    @Test
    void misuseIsNamed() {
        assertProblem(Orders.class, "withoutTransaction", "runs without a transaction");
        assertProblem(Orders.class, "mandatory", "@Transactional(MANDATORY)");
        assertProblem(Orders.class, "read", "handles GET");
        assertProblem(Orders.class, "notAResource", "is not a Jakarta REST resource method");
        assertProblem(Orders.class, "returnsAString", "returns java.lang.String");
        assertProblem(Orders.class, "badHeader", "not an HTTP field name");
        assertProblem(Orders.class, "alsoInbox", "also @Inbox");
        assertProblem(SessionOrders.class, "supports", "@TransactionAttribute(SUPPORTS)");
        assertProblem(BeanManagedOrders.class, "create", "bean-managed transactions");
    }

    @Test
    void aClassAnnotationAppliesToTheMethodsThatChangeSomething() throws Exception {
        assertTrue(IdempotentBinding.appliesFromClass(Orders.class.getMethod("create", String.class)));
        assertFalse(IdempotentBinding.appliesFromClass(Orders.class.getMethod("read")));
        assertFalse(IdempotentBinding.appliesFromClass(Orders.class.getMethod("notAResource", String.class)));
    }
}
