package io.lineup.junit;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import java.util.List;
import org.junit.platform.engine.DiscoverySelector;
import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.engine.discovery.DiscoverySelectors;
import org.junit.platform.testkit.engine.EngineExecutionResults;
import org.junit.platform.testkit.engine.EngineTestKit;
import org.junit.platform.testkit.engine.Event;

/**
 * Runs an example test class as JUnit runs any test class, for the tests that check what the
 * extension reports and what it leaves behind. The examples are static nested classes of the tests,
 * which surefire does not run by itself.
 */
final class Run {
  private Run() {}

  /** Runs the classes and returns what JUnit reported. */
  static EngineExecutionResults classes(Class<?>... testClasses) {
    return EngineTestKit.engine("junit-jupiter")
        .selectors(
            Arrays.stream(testClasses)
                .map(DiscoverySelectors::selectClass)
                .toArray(DiscoverySelector[]::new))
        .execute();
  }

  /** Runs the class and checks that its {@code passed} tests passed and none failed. */
  static void passing(Class<?> testClass, int passed) {
    classes(testClass)
        .testEvents()
        .assertStatistics(stats -> stats.succeeded(passed).failed(0).aborted(0));
  }

  /** Runs the class, whose one test must fail, and returns why. */
  static Throwable failureOfItsTest(Class<?> testClass) {
    List<Event> failed = classes(testClass).testEvents().failed().list();
    assertThat(failed).as("failed tests of %s", testClass.getSimpleName()).hasSize(1);
    return why(failed.get(0));
  }

  /** Runs the class, which must fail as a whole (not one test), and returns why. */
  static Throwable failureOfTheClass(Class<?> testClass) {
    List<Event> failed = classes(testClass).containerEvents().failed().list();
    assertThat(failed).as("failed containers of %s", testClass.getSimpleName()).hasSize(1);
    return why(failed.get(0));
  }

  private static Throwable why(Event failure) {
    return failure.getRequiredPayload(TestExecutionResult.class).getThrowable().orElseThrow();
  }
}
