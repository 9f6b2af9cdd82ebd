package io.lineup.dispatch;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** How long a task's record may live in Redis: long enough for every wait the task can have. */
class TaskRecordBoundTest {
  @Test
  void aTasksRecordOutlivesItsDelayItsLineTimeoutAndEveryAttemptWithTheLongestScheduledWait()
      throws Exception {
    EndpointSpec spec =
        spec(
            "{\"base_url\": \"http://127.0.0.1:9\", \"attempt_timeout_ms\": 1000,"
                + " \"max_attempts\": 3, \"line_timeout_ms\": 5000, \"retry_after_cap_ms\": 0,"
                + " \"backoff\": {\"schedule_ms\": [100, 9000, 200], \"max_ms\": 0}}");

    long bound = Tasks.recordBound(spec, 7_000);

    long perAttempt = 1_000 + Dispatcher.LEASE_MARGIN_MS + 9_000;
    assertThat(bound).isEqualTo(7_000 + 5_000 + 3 * perAttempt + Tasks.RECORD_GRACE_MS);
  }

  @Test
  void aRetryAfterCapLongerThanEveryBackoffWaitBoundsEachAttempt() throws Exception {
    EndpointSpec spec =
        spec(
            "{\"base_url\": \"http://127.0.0.1:9\", \"attempt_timeout_ms\": 1000,"
                + " \"max_attempts\": 2, \"line_timeout_ms\": 5000, \"retry_after_cap_ms\": 60000,"
                + " \"backoff\": {\"kind\": \"fixed\", \"initial_ms\": 10, \"max_ms\": 10}}");

    long bound = Tasks.recordBound(spec, 0);

    long perAttempt = 1_000 + Dispatcher.LEASE_MARGIN_MS + 60_000;
    assertThat(bound).isEqualTo(5_000 + 2 * perAttempt + Tasks.RECORD_GRACE_MS);
  }

  @Test
  void aDeadlineSoonerThanTheLineTimeoutTakesItsPlaceInTheBound() throws Exception {
    EndpointSpec spec =
        spec(
            "{\"base_url\": \"http://127.0.0.1:9\", \"attempt_timeout_ms\": 1000,"
                + " \"max_attempts\": 1, \"line_timeout_ms\": 3600000, \"retry_after_cap_ms\": 0,"
                + " \"backoff\": {\"kind\": \"fixed\", \"initial_ms\": 10, \"max_ms\": 10}}");

    long bound = Tasks.recordBound(spec, 0, 2_000);

    assertThat(bound)
        .isEqualTo(2_000 + 1_000 + Dispatcher.LEASE_MARGIN_MS + 10 + Tasks.RECORD_GRACE_MS);
    assertThat(Tasks.recordBound(spec, 0)).isEqualTo(Tasks.recordBound(spec, 0, 3_600_000));
  }

  @Test
  void aFinishByCountsTheEndpointsExpectedServiceTimeElseItsAttemptTimeout() throws Exception {
    EndpointSpec timed =
        spec("{\"base_url\": \"http://127.0.0.1:9\", \"attempt_timeout_ms\": 4000}");
    EndpointSpec expected =
        spec(
            "{\"base_url\": \"http://127.0.0.1:9\", \"attempt_timeout_ms\": 4000,"
                + " \"expected_service_ms\": 250}");

    assertThat(Tasks.expectedServiceMs(timed)).isEqualTo(4_000);
    assertThat(Tasks.expectedServiceMs(expected)).isEqualTo(250);
  }

  private static EndpointSpec spec(String json) throws Exception {
    return EndpointSpec.fromStored(DispatchJson.parse(json.getBytes(StandardCharsets.UTF_8)));
  }
}
