package io.lineup.junit;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Runs the annotated test class against a real Lineup server on a Redis of its own: {@link
 * LineupExtension} with the settings given here. Test methods (and {@code @BeforeEach},
 * {@code @AfterEach}, {@code @BeforeAll} methods) take a {@link io.lineup.client.LineupClient}
 * already authenticated with a token of the namespace, or the {@link LineupTestServer} itself:
 *
 * <pre>{@code
 * @LineupTest(namespace = "shop")
 * class CloseUnpaidOrdersTest {
 *   @Test
 *   void anUnpaidOrderIsClosed(LineupClient client, LineupTestServer lineup) {
 *     client.publish(lineup.queue("close-unpaid"), NewJob.ofJson("{\"order\": 42}"));
 *     ... start the code under test's worker ...
 *     lineup.awaitIdle("close-unpaid");
 *     lineup.assertNoDeadLetters("close-unpaid");
 *   }
 * }
 * }</pre>
 *
 * <p>Settings that an annotation cannot hold (any {@link io.lineup.server.ServerSettings}) are
 * given by registering the extension from its builder instead: {@code @RegisterExtension static
 * LineupExtension lineup = LineupExtension.builder()...build();}. Use one or the other in a class,
 * not both. A {@code @LineupTest} on a {@code @Nested} class is not read: nested classes share
 * their enclosing class's server.
 */
@Target({ElementType.TYPE, ElementType.ANNOTATION_TYPE})
@Retention(RetentionPolicy.RUNTIME)
@Documented
@Inherited
@ExtendWith(LineupExtension.class)
public @interface LineupTest {
  /**
   * The namespace the injected client's token acts in; default {@value
   * LineupExtension#DEFAULT_NAMESPACE}. 1 to 64 characters of {@code A-Z a-z 0-9 _ . -} (at most
   * {@value LineupExtension#MAX_FRESH_BASE_LENGTH} with {@link #freshNamespacePerTest()}).
   */
  String namespace() default LineupExtension.DEFAULT_NAMESPACE;

  /**
   * The scopes of the injected client's token, among {@code publish}, {@code consume}, {@code
   * manage} and {@code read}; default all four.
   */
  String[] scopes() default {"publish", "consume", "manage", "read"};

  /**
   * The highest priority the injected client's token may publish with, -255 to 255; default {@value
   * LineupExtension#DEFAULT_MAX_PRIORITY}.
   */
  int maxPriority() default LineupExtension.DEFAULT_MAX_PRIORITY;

  /** Whether one server serves the class or each test method has its own; default per class. */
  ServerLifecycle lifecycle() default ServerLifecycle.PER_CLASS;

  /**
   * Whether each test method gets a namespace of its own ({@code <namespace>-<8 hex digits>}, with
   * its own token and client) on the shared server, so that no test sees another's queues; default
   * false.
   */
  boolean freshNamespacePerTest() default false;

  /**
   * The non-public addresses dispatch tasks and callbacks may reach, as the server's {@code
   * LINEUP_EGRESS_ALLOW} reads them (e.g. {@code 127.0.0.1} for a target the test starts); empty
   * (the default): public addresses only, as a server's default.
   */
  String egressAllow() default "";

  /**
   * An existing Redis to run the server on (e.g. {@code redis://127.0.0.1:6379}); empty (the
   * default): the extension starts a redis-server of its own on a free port, without persistence,
   * and stops it after. Jobs on an existing Redis outlive the test: see docs/testing.md.
   */
  String redisUrl() default "";
}
