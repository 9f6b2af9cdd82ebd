package io.lineup.junit;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

/**
 * Measures what a test class waits for before its first test: Redis started, the server listening,
 * the namespace registered and its token issued. Five starts in one JVM, the first one cold (class
 * loading included); prints each and the median for docs/testing.md. Off unless asked for:
 *
 * <pre>
 * ./mvnw -pl lineup-junit test -Dtest=StartTimeMeasurement -Dlineup.junit.measure=true
 * </pre>
 *
 * <p>The figures land in {@code
 * target/surefire-reports/io.lineup.junit.StartTimeMeasurement-output.txt}. Nothing is asserted on
 * them: a busy machine must not fail a build.
 */
@EnabledIfSystemProperty(named = "lineup.junit.measure", matches = "true")
class StartTimeMeasurement {
  private static final int STARTS = 5;

  @Test
  void measuresFiveStarts() {
    List<Long> millis = new ArrayList<>();
    for (int i = 0; i < STARTS; i++) {
      long started = System.nanoTime();
      try (RunningLineup running =
          RunningLineup.start(LineupExtension.builder().settings(), "measured")) {
        millis.add((System.nanoTime() - started) / 1_000_000);
        assertThat(running.base().client().ready()).isTrue();
      }
    }
    List<Long> sorted = millis.stream().sorted().toList();
    System.out.println("lineup-junit start times (ms), in order: " + millis);
    System.out.println(
        "lineup-junit start time, median of " + STARTS + ": " + sorted.get(2) + " ms");
  }
}
