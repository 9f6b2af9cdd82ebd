package io.lineup.api;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class ScheduleFieldsTest {
  @Test
  void aQueuesScheduleTakesAJobAndAnEndpointsATaskAndOtherwiseTheSameFields() {
    assertThat(ScheduleFields.QUEUE_SCHEDULE).contains(ScheduleFields.JOB).hasSize(12);
    assertThat(ScheduleFields.ENDPOINT_SCHEDULE).contains(ScheduleFields.TASK).hasSize(12);
    assertThat(ScheduleFields.QUEUE_SCHEDULE).doesNotContain(ScheduleFields.TASK);
    assertThat(ScheduleFields.ENDPOINT_SCHEDULE).doesNotContain(ScheduleFields.JOB);
  }

  @Test
  void aSchedulesJobTakesThePublishNamesOfItsOptions() {
    assertThat(ScheduleFields.JOB_FIELDS)
        .containsExactlyInAnyOrder(
            "payload", "payload_base64", "priority", "key", "ttl_ms", "max_attempts", "ttr_ms");
    assertThat(ScheduleFields.MISSED_VALUES).containsExactlyInAnyOrder("skip", "catch_up", "none");
  }
}
