package io.lineup.api;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import org.junit.jupiter.api.Test;

class QueueSettingFieldTest {
  @Test
  void thereAreTwentySettingsEachWithItsOwnPath() {
    assertThat(QueueSettingField.values()).hasSize(20);
    assertThat(Arrays.stream(QueueSettingField.values()).map(QueueSettingField::jsonPath))
        .doesNotHaveDuplicates()
        .contains(
            "rate_period_ms",
            "rate_burst",
            "expected_service_ms",
            "durable_replicas",
            "fair",
            "key_rate_period_ms",
            "key_max_waiting");
  }

  @Test
  void theBackoffsSettingsSitInTheBackoffObject() {
    assertThat(QueueSettingField.BACKOFF_INITIAL.jsonPath()).isEqualTo("backoff.initial_ms");
    assertThat(QueueSettingField.BACKOFF_JITTER.group()).isEqualTo("backoff");
    assertThat(QueueSettingField.RATE_LIMIT.group()).isNull();
    assertThat(QueueSettingField.RATE_LIMIT.jsonPath()).isEqualTo("rate_limit");
  }
}
