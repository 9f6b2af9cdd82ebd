package io.lineup.core;

import static io.lineup.core.Fixtures.aFreshQueue;
import static org.assertj.core.api.Assertions.assertThat;

import io.lineup.core.model.Backoff;
import io.lineup.core.model.QueueName;
import io.lineup.core.model.QueueSettings;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * Queue settings: the documented defaults, and a change seen at once by another instance. Runs on
 * both topologies ({@link QueueSettingsOnStandaloneTest}, {@link QueueSettingsOnClusterTest}).
 */
abstract class QueueSettingsTest extends EngineSuite {
  @Test
  void aQueueNobodyConfiguredReportsTheDocumentedDefaults() {
    try (Lineup lineup = anEngine()) {
      QueueSettings settings = lineup.stats(aFreshQueue()).settings();
      assertThat(settings)
          .isEqualTo(
              new QueueSettings(
                  false,
                  0,
                  0,
                  QueueSettings.DEFAULT_MAX_ATTEMPTS,
                  QueueSettings.DEFAULT_TIME_TO_RUN,
                  Backoff.DEFAULT,
                  QueueSettings.DEFAULT_RETENTION,
                  QueueSettings.DEFAULT_RETENTION_MAX,
                  Duration.ZERO,
                  java.time.Duration.ofSeconds(1),
                  0,
                  0,
                  false,
                  0,
                  0,
                  java.time.Duration.ofSeconds(1),
                  0));
    }
  }

  @Test
  void aChangeOnOneInstanceIsSeenByAnotherAtOnceAndLeavesOtherSettingsAlone() {
    QueueName queue = aFreshQueue();
    try (Lineup one = anEngine();
        Lineup two = anEngine()) {
      one.configure(
          queue, QueueSettings.builder().rateLimit(300).timeToRun(Duration.ofMinutes(2)).build());
      QueueSettings seen = two.stats(queue).settings();
      assertThat(seen.rateLimit()).isEqualTo(300);
      assertThat(seen.timeToRun()).isEqualTo(Duration.ofMinutes(2));
      assertThat(seen.maxAttempts()).isEqualTo(QueueSettings.DEFAULT_MAX_ATTEMPTS);
      assertThat(two.queues()).contains(queue);
    }
  }
}
