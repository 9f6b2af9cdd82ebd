package io.lineup.junit;

/**
 * How long one Lineup server (and its Redis) lives under {@link LineupExtension}: for a whole test
 * class, or for each test method.
 */
public enum ServerLifecycle {
  /**
   * One server for the test class, its {@code @Nested} classes included: started before the first
   * test, stopped after the last. The default, and the fast choice; tests then share the server's
   * queues unless {@link LineupExtension.Builder#freshNamespacePerTest} gives each its own
   * namespace.
   */
  PER_CLASS,

  /**
   * A server (and Redis) of its own for every test method, started before the method's
   * {@code @BeforeEach} methods and stopped after its {@code @AfterEach} methods. Nothing is
   * shared, at the price of a start per test (docs/testing.md gives the measured time).
   */
  PER_METHOD
}
