package io.lineup.server.http;

import static org.assertj.core.api.Assertions.assertThat;

import io.lineup.api.ErrorCode;
import io.lineup.core.model.InvalidArgumentException;
import io.lineup.core.model.QueueSetting;
import org.junit.jupiter.api.Test;

class EngineFieldNamesTest {
  @Test
  void everyQueueSettingIsNamedByItsJsonPath() {
    for (QueueSetting setting : QueueSetting.values()) {
      assertThat(EngineFieldNames.toHttp(setting.engineName()))
          .as(setting.name())
          .isEqualTo(setting.jsonPath());
    }
    assertThat(EngineFieldNames.toHttp("backoff.initial")).isEqualTo("backoff.initial_ms");
  }

  @Test
  void jobOptionsAndUnknownNamesKeepTheirTranslation() {
    assertThat(EngineFieldNames.toHttp("delay")).isEqualTo("delay_ms");
    assertThat(EngineFieldNames.toHttp("timeToRun")).isEqualTo("ttr_ms");
    assertThat(EngineFieldNames.toHttp("priority")).isEqualTo("priority");
  }

  @Test
  void anEngineRefusalOfASettingAnswersInvalidFieldUnderItsJsonName() {
    ApiException answer =
        ErrorMapper.toApiException(
            new InvalidArgumentException("retentionMax", "must be from 0 to 10000000, got -1"));
    assertThat(answer.code()).isEqualTo(ErrorCode.INVALID_FIELD);
    assertThat(answer.field()).isEqualTo("retention_max");
  }
}
