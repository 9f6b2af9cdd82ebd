package io.lineup.junit;

import io.lineup.api.Names;
import io.lineup.client.LineupClient;
import io.lineup.server.ServerSettings;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolutionException;
import org.junit.jupiter.api.extension.ParameterResolver;
import org.junit.platform.commons.support.AnnotationSupport;

/**
 * Starts a real Lineup server for a test class: on 127.0.0.1 and a free port, with a random admin
 * token, on a redis-server of its own (started on a free port with its data in a temporary folder,
 * no Docker needed) or on an existing Redis; registers a namespace and issues a token for it. Test
 * methods, {@code @BeforeEach}, {@code @AfterEach} and {@code @BeforeAll} methods and constructors
 * take a {@link LineupClient} (authenticated with that token) or the {@link LineupTestServer}
 * (address, tokens, {@code awaitIdle}, dead letters) as parameters. After the class (or the test
 * method, with {@link ServerLifecycle#PER_METHOD}) the clients are closed, the server and its Redis
 * stopped and the temporary folder deleted, whether the tests passed or not.
 *
 * <p>Declared with {@link LineupTest}, or registered with settings of its own:
 *
 * <pre>{@code
 * @RegisterExtension
 * static LineupExtension lineup =
 *     LineupExtension.builder()
 *         .namespace("shop")
 *         .scopes("publish", "consume")
 *         .egressAllow("127.0.0.1")
 *         .serverSettings(settings -> settings.maxPayloadBytes(4096))
 *         .build();
 * }</pre>
 *
 * <p>Register one Lineup extension per test class, in a static field or with the annotation: every
 * registration in a class hierarchy shares the one server. {@code @Nested} classes share their
 * enclosing class's server.
 */
public final class LineupExtension
    implements BeforeAllCallback, BeforeEachCallback, ParameterResolver {
  /** The namespace of the injected client's token unless one is given: {@value}. */
  public static final String DEFAULT_NAMESPACE = "test";

  /** The highest priority the injected client's token may publish with, unless one is given. */
  public static final int DEFAULT_MAX_PRIORITY = 255;

  /** The scopes a token may have; the injected client's token has them all unless told. */
  public static final List<String> ALL_SCOPES = List.of("publish", "consume", "manage", "read");

  /**
   * Longest namespace that fresh namespaces are made from: a fresh one adds a dash and 8 hex digits
   * and must stay within the 64 characters of a namespace.
   */
  public static final int MAX_FRESH_BASE_LENGTH = Names.MAX_LENGTH - 9;

  /** Largest priority magnitude a token may carry (-255 to 255), as the server allows. */
  static final int PRIORITY_LIMIT = 255;

  private static final ExtensionContext.Namespace STORE =
      ExtensionContext.Namespace.create(LineupExtension.class);
  private static final String CLASS_SERVER = "class-server";
  private static final String TEST_SERVER = "test-server";
  private static final String TEST_NAMESPACE = "test-namespace";

  /** The settings built in code, or null to read them from {@link LineupTest}. */
  private final ExtensionSettings given;

  /**
   * The extension that {@link LineupTest} declares: it reads its settings from the annotation on
   * the test class (or an enclosing class), and uses the defaults without one.
   */
  public LineupExtension() {
    this(null);
  }

  private LineupExtension(ExtensionSettings given) {
    this.given = given;
  }

  /** A builder starting from the defaults: namespace {@value #DEFAULT_NAMESPACE}, every scope. */
  public static Builder builder() {
    return new Builder();
  }

  /** Starts the class's server before its first test, unless servers start per test method. */
  @Override
  public void beforeAll(ExtensionContext context) {
    if (settings(context).lifecycle() == ServerLifecycle.PER_CLASS) {
      classServer(context);
    }
  }

  /** Starts the test method's server, or opens its fresh namespace, when the settings say so. */
  @Override
  public void beforeEach(ExtensionContext context) {
    testHandle(context);
  }

  /** Whether the parameter is a {@link LineupClient} or a {@link LineupTestServer}. */
  @Override
  public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
    Class<?> type = parameter.getParameter().getType();
    return type == LineupClient.class || type == LineupTestServer.class;
  }

  /**
   * The test's {@link LineupTestServer}, or its client.
   *
   * @throws ParameterResolutionException when servers start per test method and the parameter
   *     belongs to a {@code @BeforeAll} method or a constructor, before any test method
   */
  @Override
  public Object resolveParameter(ParameterContext parameter, ExtensionContext context) {
    LineupTestServer handle =
        context.getTestMethod().isPresent() ? testHandle(context) : classHandle(context);
    return parameter.getParameter().getType() == LineupClient.class ? handle.client() : handle;
  }

  /** The handle a test method and its callbacks see. */
  private LineupTestServer testHandle(ExtensionContext context) {
    ExtensionSettings settings = settings(context);
    ExtensionContext.Store store = context.getStore(STORE);
    if (settings.lifecycle() == ServerLifecycle.PER_METHOD) {
      return store
          .getOrComputeIfAbsent(
              TEST_SERVER,
              key -> RunningLineup.start(settings, namespaceForTest(settings)),
              RunningLineup.class)
          .base();
    }
    RunningLineup shared = classServer(context);
    if (!settings.freshNamespacePerTest()) {
      return shared.base();
    }
    return store
        .getOrComputeIfAbsent(
            TEST_NAMESPACE,
            key -> new OpenNamespace(shared.open(RunningLineup.freshName(settings.namespace()))),
            OpenNamespace.class)
        .handle();
  }

  /** The handle of the class's server, for {@code @BeforeAll} methods and constructors. */
  private LineupTestServer classHandle(ExtensionContext context) {
    if (settings(context).lifecycle() == ServerLifecycle.PER_METHOD) {
      throw new ParameterResolutionException(
          "With ServerLifecycle.PER_METHOD each test method has a Lineup server of its own, which"
              + " starts after the test class's constructor and @BeforeAll methods: take the"
              + " LineupClient or LineupTestServer as a parameter of test, @BeforeEach or"
              + " @AfterEach methods instead");
    }
    return classServer(context).base();
  }

  /**
   * The server of the test class, started on first use and closed by JUnit's store when the class
   * ends; a {@code @Nested} class finds its enclosing class's.
   */
  private RunningLineup classServer(ExtensionContext context) {
    ExtensionSettings settings = settings(context);
    return classContext(context)
        .getStore(STORE)
        .getOrComputeIfAbsent(
            CLASS_SERVER,
            key -> RunningLineup.start(settings, settings.namespace()),
            RunningLineup.class);
  }

  private static String namespaceForTest(ExtensionSettings settings) {
    return settings.freshNamespacePerTest()
        ? RunningLineup.freshName(settings.namespace())
        : settings.namespace();
  }

  /** The nearest context of a test class: the context itself or the one around its method. */
  private static ExtensionContext classContext(ExtensionContext context) {
    ExtensionContext current = context;
    while (current.getTestMethod().isPresent() && current.getParent().isPresent()) {
      current = current.getParent().get();
    }
    return current;
  }

  private ExtensionSettings settings(ExtensionContext context) {
    if (given != null) {
      return given;
    }
    for (Class<?> type = context.getTestClass().orElse(null);
        type != null;
        type = type.getEnclosingClass()) {
      Optional<LineupTest> annotation = AnnotationSupport.findAnnotation(type, LineupTest.class);
      if (annotation.isPresent()) {
        return ExtensionSettings.of(annotation.get());
      }
    }
    return builder().settings();
  }

  /** A fresh namespace's handle, whose client JUnit's store closes when its test ends. */
  private record OpenNamespace(LineupTestServer handle) implements AutoCloseable {
    @Override
    public void close() {
      handle.closeClient();
    }
  }

  /**
   * Settings of a {@link LineupExtension}; each method checks its value at once and returns this
   * builder.
   */
  public static final class Builder {
    private String namespace = DEFAULT_NAMESPACE;
    private List<String> scopes = ALL_SCOPES;
    private int maxPriority = DEFAULT_MAX_PRIORITY;
    private ServerLifecycle lifecycle = ServerLifecycle.PER_CLASS;
    private boolean freshNamespacePerTest;
    private String redisUrl;
    private UnaryOperator<ServerSettings.Builder> serverSettings = settings -> settings;

    private Builder() {}

    /**
     * The namespace of the injected client's token; default {@value #DEFAULT_NAMESPACE}.
     *
     * @throws IllegalArgumentException when it is not 1 to 64 characters of {@code A-Z a-z 0-9 _ .
     *     -} or only dots
     */
    public Builder namespace(String namespace) {
      String problem = Names.problem(namespace, Names.MAX_LENGTH);
      if (problem != null) {
        throw new IllegalArgumentException("The namespace " + problem);
      }
      this.namespace = namespace;
      return this;
    }

    /**
     * The scopes of the injected client's token; default all of {@link #ALL_SCOPES}.
     *
     * @throws IllegalArgumentException when there is none or one is not in {@link #ALL_SCOPES}
     */
    public Builder scopes(String... scopes) {
      if (scopes == null || scopes.length == 0) {
        throw new IllegalArgumentException("A token needs at least one scope of " + ALL_SCOPES);
      }
      for (String scope : scopes) {
        if (!ALL_SCOPES.contains(scope)) {
          throw new IllegalArgumentException(
              "Unknown scope '" + scope + "': the scopes are " + ALL_SCOPES);
        }
      }
      this.scopes = List.of(scopes);
      return this;
    }

    /**
     * The highest priority the injected client's token may publish with; default {@value
     * #DEFAULT_MAX_PRIORITY}.
     *
     * @throws IllegalArgumentException when it is outside -255 to 255
     */
    public Builder maxPriority(int maxPriority) {
      if (Math.abs(maxPriority) > PRIORITY_LIMIT) {
        throw new IllegalArgumentException(
            "The highest priority must be -255 to 255, got " + maxPriority);
      }
      this.maxPriority = maxPriority;
      return this;
    }

    /** One server per test class (the default) or per test method. */
    public Builder lifecycle(ServerLifecycle lifecycle) {
      this.lifecycle = Objects.requireNonNull(lifecycle, "lifecycle");
      return this;
    }

    /**
     * Whether each test method gets a namespace of its own on the class's server, {@code
     * <namespace>-<8 hex digits>} with its own token and client, so that no test sees another's
     * queues; default false. The namespace may then be at most {@value #MAX_FRESH_BASE_LENGTH}
     * characters ({@link #build()} checks).
     */
    public Builder freshNamespacePerTest(boolean fresh) {
      this.freshNamespacePerTest = fresh;
      return this;
    }

    /**
     * An existing Redis to run the server on, e.g. {@code redis://127.0.0.1:6379} (any form the
     * server's {@code LINEUP_REDIS_URL} takes); null or blank (the default): the extension starts a
     * redis-server of its own. The extension never deletes anything from an existing Redis.
     */
    public Builder redisUrl(String redisUrl) {
      this.redisUrl = redisUrl == null || redisUrl.isBlank() ? null : redisUrl.strip();
      return this;
    }

    /**
     * The non-public addresses and hosts dispatch tasks and callbacks may reach, as the server's
     * {@code LINEUP_EGRESS_ALLOW} (e.g. {@code 127.0.0.1} for a target the test starts); by default
     * public addresses only. A shorthand for {@code serverSettings(s -> s.egressAllow(...))}.
     */
    public Builder egressAllow(String egressAllow) {
      return serverSettings(settings -> settings.egressAllow(egressAllow));
    }

    /**
     * Changes the server's settings, after the extension's own (127.0.0.1, a free port, the Redis,
     * a random admin token, a data folder in the temporary folder) and after any earlier call; a
     * change of those five is the test's to answer for. Checked when the server starts.
     */
    public Builder serverSettings(UnaryOperator<ServerSettings.Builder> change) {
      Objects.requireNonNull(change, "change");
      UnaryOperator<ServerSettings.Builder> before = this.serverSettings;
      this.serverSettings = settings -> change.apply(before.apply(settings));
      return this;
    }

    /**
     * The extension, to register in a static field with {@code @RegisterExtension}.
     *
     * @throws IllegalArgumentException when fresh namespaces are asked for and the namespace is
     *     longer than {@value #MAX_FRESH_BASE_LENGTH} characters
     */
    public LineupExtension build() {
      return new LineupExtension(settings());
    }

    /** The settings, checked as {@link #build()} does. */
    ExtensionSettings settings() {
      if (freshNamespacePerTest && namespace.length() > MAX_FRESH_BASE_LENGTH) {
        throw new IllegalArgumentException(
            "With a fresh namespace per test the namespace may be at most "
                + MAX_FRESH_BASE_LENGTH
                + " characters, got "
                + namespace.length());
      }
      return new ExtensionSettings(
          namespace,
          scopes,
          maxPriority,
          lifecycle,
          freshNamespacePerTest,
          redisUrl,
          serverSettings);
    }
  }
}
