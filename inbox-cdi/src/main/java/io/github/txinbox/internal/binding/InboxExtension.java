package io.github.txinbox.internal.binding;

import io.github.txinbox.Inbox;
import io.github.txinbox.InboxDefinitionException;
import io.github.txinbox.internal.health.InboxReadiness;
import io.github.txinbox.internal.metrics.InboxMetrics;
import io.github.txinbox.internal.settings.MicroProfileApis;
import io.github.txinbox.spi.BindingIndex;
import io.github.txinbox.spi.ScopeOwner;
import io.github.txinbox.spi.ScopeUse;
import jakarta.annotation.Priority;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.context.Dependent;
import jakarta.enterprise.event.Observes;
import jakarta.enterprise.inject.Any;
import jakarta.enterprise.inject.literal.NamedLiteral;
import jakarta.enterprise.inject.spi.AfterBeanDiscovery;
import jakarta.enterprise.inject.spi.AfterDeploymentValidation;
import jakarta.enterprise.inject.spi.AnnotatedType;
import jakarta.enterprise.inject.spi.Bean;
import jakarta.enterprise.inject.spi.BeanManager;
import jakarta.enterprise.inject.spi.BeforeBeanDiscovery;
import jakarta.enterprise.inject.spi.Extension;
import jakarta.enterprise.inject.spi.ProcessAnnotatedType;
import jakarta.interceptor.Interceptor;
import jakarta.transaction.TransactionSynchronizationRegistry;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.logging.Level;
import java.util.logging.Logger;
import javax.naming.InitialContext;
import javax.naming.NamingException;

/**
 * Binds {@link Inbox @Inbox} once per application, at deployment: for each type CDI discovers and keeps, it reads the
 * type as the container finally sees it (its {@link AnnotatedType}, after other extensions changed or vetoed it, with
 * stereotypes), builds the {@link InboxBinding} of each method it applies to, and fails the deployment on misuse,
 * naming the bean and the method. The interceptor finds the bindings here. Once every extension has bound its methods,
 * it fails the deployment where bindings of different kinds share a scope ({@link ScopeOwner}: inbox-http's
 * {@code @Idempotent} is one). It also adds {@link InboxMetrics} where the MicroProfile Metrics API is present, and
 * {@link InboxReadiness} where the MicroProfile Health API is.
 *
 * <p>It also keeps the server's {@link TransactionSynchronizationRegistry} for the inbox's beans, found in
 * {@value #REGISTRY} at deployment, before any consumer starts. A {@code @Resource} lookup there would be made when
 * each bean is created, and a connector's thread (a Kafka consumer's, for one) has no component environment: there it
 * fails.
 */
public class InboxExtension implements Extension, ScopeOwner {

    private static final Logger LOG = Logger.getLogger(InboxExtension.class.getName());

    private final BindingIndex<InboxBinding> inboxes = new BindingIndex<>();
    private final Set<Class<?>> candidates = ConcurrentHashMap.newKeySet();

    /** Where Jakarta EE servers bind the registry, in a component's environment. */
    static final String REGISTRY = "java:comp/TransactionSynchronizationRegistry";
    /** The name of the registry's bean, which {@code InboxRepository} injects by the same literal. */
    static final String TRANSACTIONS = "io.github.txinbox.transactions";
    private volatile TransactionSynchronizationRegistry transactions;

    void addOptionalBeans(@Observes BeforeBeanDiscovery event) {
        ClassLoader loader = InboxExtension.class.getClassLoader();
        if (MicroProfileApis.present(MicroProfileApis.METRIC_REGISTRY, loader)) {
            event.addAnnotatedType(InboxMetrics.class, InboxMetrics.class.getName())
                    .add(ApplicationScoped.Literal.INSTANCE);
        } else {
            LOG.fine("No MicroProfile Metrics API: the inbox records no metrics");
        }
        if (MicroProfileApis.present(MicroProfileApis.HEALTH_CHECK, loader)) {
            event.addAnnotatedType(InboxReadiness.class, InboxReadiness.class.getName())
                    .add(ApplicationScoped.Literal.INSTANCE);
        } else {
            LOG.fine("No MicroProfile Health API: the inbox adds no readiness check");
        }
    }

    /**
     * Notes the types that may use {@code @Inbox}, late among the observers, so that changes other extensions make
     * count. Every type is looked at, not only those the scanner found {@code @Inbox} on: an extension or a stereotype
     * may have put it there.
     */
    <T> void note(@Observes @Priority(Interceptor.Priority.PLATFORM_AFTER + 900) ProcessAnnotatedType<T> event,
            BeanManager beans) {
        AnnotatedType<T> type = event.getAnnotatedType();
        Class<T> javaClass = type.getJavaClass();
        if (javaClass.isInterface() || Modifier.isAbstract(javaClass.getModifiers())
                || type.isAnnotationPresent(Interceptor.class)) {
            // Interceptors carry the binding to say what they intercept, not to be intercepted.
            return;
        }
        boolean uses = BindingIndex.declared(type.getAnnotations(), Inbox.class, beans) != null
                || type.getMethods().stream().anyMatch(method -> method.isAnnotationPresent(Inbox.class));
        if (uses) {
            candidates.add(javaClass);
            bindNoting(event, type, beans);
        }
    }

    /**
     * Binds {@link TransactionBoundary} to the type's {@code @Inbox} methods whose binding will read the caller's
     * transaction it notes ({@link InboxBinding.Transaction#NOTED}: a CDI bean's), and to no other method. Where a later
     * extension changes the type so that a binding reads it and nothing was noted, that call is treated as owning its
     * transaction, the safe side ({@link TransactionBoundary#callersTransaction}).
     */
    private <T> void bindNoting(ProcessAnnotatedType<T> event, AnnotatedType<T> type, BeanManager beans) {
        Set<Method> noted = new HashSet<>();
        for (InboxBinding.Site site : inboxSites(type, beans)) {
            if (InboxBinding.transactionOf(site) == InboxBinding.Transaction.NOTED) {
                noted.add(site.method());
            }
        }
        if (!noted.isEmpty()) {
            event.configureAnnotatedType().filterMethods(method -> noted.contains(method.getJavaMember()))
                    .forEach(method -> method.add(NotesCallersTransaction.Literal.INSTANCE));
        }
    }

    /**
     * Looks the transaction registry up as the deployment ends, first among the observers: other extensions (a
     * messaging connector's) may start consuming in theirs. Where the deployment's thread has no component environment
     * either, the first call that has one finds it.
     */
    void findTransactionsAtDeployment(
            @Observes @Priority(Interceptor.Priority.PLATFORM_BEFORE) AfterDeploymentValidation event) {
        try {
            findTransactions();
        } catch (RuntimeException e) {
            LOG.log(Level.FINE, e, () -> "No " + REGISTRY + " at deployment; the inbox looks it up at its first use");
        }
    }

    /**
     * Returns the server's transaction registry, found at deployment or, failing that, now.
     *
     * @return the registry
     * @throws IllegalStateException when it was not found at deployment and this thread has no component environment
     */
    public TransactionSynchronizationRegistry transactions() {
        TransactionSynchronizationRegistry found = findTransactions();
        if (found == null) {
            throw new IllegalStateException("The inbox cannot find " + REGISTRY + " on the thread "
                    + Thread.currentThread().getName() + ", which has no component environment, and did not find it "
                    + "at deployment either: call the @Inbox method from a thread the server manages");
        }
        return found;
    }

    /** The registry found at deployment or, failing that, now; {@code null} where neither could find it. */
    private TransactionSynchronizationRegistry findTransactions() {
        TransactionSynchronizationRegistry found = transactions;
        if (found == null) {
            try {
                found = InitialContext.doLookup(REGISTRY);
                transactions = found;
            } catch (NamingException e) {
                LOG.log(Level.FINE, e, () -> "No " + REGISTRY + " on " + Thread.currentThread().getName());
            }
        }
        return found;
    }

    /**
     * Binds each noted type as the container finally keeps it (a type an extension vetoed is not kept, and not
     * bound), and fails the deployment on misuse.
     */
    void bind(@Observes AfterBeanDiscovery event, BeanManager beans) {
        // For InboxRepository, which as a public type does not name this class: the registry under a name, null where
        // there is none (Payara creates the beans of an EAR's lib/ outside any component for its start-up event).
        event.addBean().beanClass(InboxExtension.class).types(TransactionSynchronizationRegistry.class, Object.class)
                .qualifiers(NamedLiteral.of(TRANSACTIONS), Any.Literal.INSTANCE).scope(Dependent.class)
                .createWith(context -> findTransactions());
        List<String> problems = new ArrayList<>();
        for (Class<?> candidate : candidates) {
            for (AnnotatedType<?> type : event.getAnnotatedTypes(candidate)) {
                problems.addAll(bindInbox(type, beans));
            }
        }
        candidates.clear();
        for (String problem : problems) {
            event.addDefinitionError(new InboxDefinitionException(problem));
        }
    }

    private <T> List<String> bindInbox(AnnotatedType<T> type, BeanManager beans) {
        Map<Method, InboxBinding> methods = new LinkedHashMap<>();
        List<String> problems = new ArrayList<>();
        for (InboxBinding.Site site : inboxSites(type, beans)) {
            List<String> wrong = InboxBinding.problems(site);
            if (wrong.isEmpty()) {
                methods.put(site.method(), InboxBinding.ofValid(site));
            } else {
                problems.addAll(wrong);
            }
        }
        if (problems.isEmpty() && !methods.isEmpty()) {
            inboxes.put(type.getJavaClass(), methods);
        }
        return problems;
    }

    /** The methods of a type that {@code @Inbox} applies to ({@link BindingIndex#applied}): every public one from the class. */
    private static <T> List<InboxBinding.Site> inboxSites(AnnotatedType<T> type, BeanManager beans) {
        List<InboxBinding.Site> sites = new ArrayList<>();
        for (BindingIndex.Applied<Inbox> applied : BindingIndex.applied(type, Inbox.class, beans, method -> true)) {
            sites.add(new InboxBinding.Site(type.getJavaClass(), applied.method().getJavaMember(),
                    applied.annotation(), applied.method().getAnnotations(), type.getAnnotations()));
        }
        return sites;
    }

    /**
     * Returns the {@code @Inbox} binding of a method of an intercepted instance ({@link BindingIndex#binding}).
     *
     * <p>Not through {@code @Intercepted Bean<?>}: a message-driven bean is not a CDI bean, so Weld injects
     * {@code null} there (and logs WELD-001703 for every instance), and message-driven beans are the main use.
     *
     * @param type   the class of the intercepted instance
     * @param method the intercepted method
     * @return the binding, or {@code null} when {@code @Inbox} does not apply to that method of that class
     */
    InboxBinding binding(Class<?> type, Method method) {
        return inboxes.binding(type, method);
    }

    @Override
    public List<ScopeUse> scopeUses() {
        List<ScopeUse> uses = new ArrayList<>();
        for (Map<Method, InboxBinding> methods : inboxes.all()) {
            for (InboxBinding binding : methods.values()) {
                uses.add(new ScopeUse(binding.scope(), binding.scope(), "@Inbox on " + binding.description(),
                        "a message id"));
            }
        }
        return uses;
    }

    /**
     * Returns the scopes of the deployment's bound methods, of every {@link ScopeOwner} (this extension and those of
     * other modules), by the longest scope they store markers under.
     *
     * @param owners the extensions whose bindings claim markers
     * @return each scope, with the first method that uses it
     */
    public static Map<String, String> scopes(Iterable<? extends ScopeOwner> owners) {
        Map<String, String> scopes = new LinkedHashMap<>();
        for (ScopeOwner owner : owners) {
            for (ScopeUse use : owner.scopeUses()) {
                scopes.putIfAbsent(use.storedAs(), use.usedBy());
            }
        }
        return scopes;
    }

    /**
     * Fails the deployment where bindings whose markers are ids of different kinds share a scope (an {@code @Inbox}
     * method and an {@code @Idempotent} one): there a message id and an idempotency key would be taken for each other,
     * and a message whose id equals a committed key would be skipped. Asked once every extension has bound its
     * methods.
     */
    void checkSharedScopes(@Observes AfterDeploymentValidation event, BeanManager beans) {
        List<ScopeOwner> owners = new ArrayList<>();
        owners.add(this);
        for (Bean<?> bean : beans.getBeans(ScopeOwner.class, Any.Literal.INSTANCE)) {
            if (bean.getBeanClass() == InboxExtension.class) {
                continue;
            }
            owners.add((ScopeOwner) beans.getReference(bean, ScopeOwner.class, beans.createCreationalContext(bean)));
        }
        for (String problem : sharedScopes(owners)) {
            event.addDeploymentProblem(new InboxDefinitionException(problem));
        }
    }

    /**
     * Lists the scopes that bindings with ids of different kinds share, once each.
     *
     * @param owners the extensions whose bindings claim markers
     * @return the problems, each naming both methods
     */
    static List<String> sharedScopes(Iterable<? extends ScopeOwner> owners) {
        Map<String, ScopeUse> first = new LinkedHashMap<>();
        List<String> problems = new ArrayList<>();
        Set<String> reported = new HashSet<>();
        for (ScopeOwner owner : owners) {
            for (ScopeUse use : owner.scopeUses()) {
                ScopeUse earlier = first.putIfAbsent(use.scope(), use);
                if (earlier != null && !earlier.ids().equals(use.ids()) && reported.add(use.scope())) {
                    problems.add(earlier.usedBy() + " and " + use.usedBy() + " share the scope '" + use.scope()
                            + "': " + earlier.ids() + " and " + use.ids() + " would be taken for each other; give each a scope of its own");
                }
            }
        }
        return problems;
    }
}
