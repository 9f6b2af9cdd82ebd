package io.lineup.dispatch;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The stored form of a task's request, and the key its deliveries carry. */
class TaskRequestTest {
  private static TaskRequest request(String deliveryKey) {
    return new TaskRequest(
        "POST",
        "/render",
        Map.of("X-Trace", "t1"),
        "application/json",
        "{\"a\":1}".getBytes(StandardCharsets.UTF_8),
        null,
        deliveryKey);
  }

  @Test
  void aStoredRequestReadsBackWithItsDeliveryKey() {
    String key = TaskRequest.newDeliveryKey();
    TaskRequest read = TaskRequest.decode(request(key).encode());
    assertThat(read.deliveryKey()).isEqualTo(key);
    assertThat(read.idempotencyKey("~7")).isEqualTo(key);
    assertThat(read.method()).isEqualTo("POST");
    assertThat(read.headers()).containsEntry("X-Trace", "t1");
    assertThat(new String(read.body(), StandardCharsets.UTF_8)).isEqualTo("{\"a\":1}");
  }

  @Test
  void aStoredRequestKeepsItsDeadlinesAndOneWithoutReadsNone() {
    TaskRequest read =
        TaskRequest.decode(
            request(TaskRequest.newDeliveryKey()).withDeadlines(1_000L, 2_000L).encode());
    assertThat(read.startBy()).isEqualTo(1_000L);
    assertThat(read.finishBy()).isEqualTo(2_000L);
    assertThat(read.hasDeadline()).isTrue();
    TaskRequest none = TaskRequest.decode(request(TaskRequest.newDeliveryKey()).encode());
    assertThat(none.startBy()).isNull();
    assertThat(none.finishBy()).isNull();
    assertThat(none.hasDeadline()).isFalse();
  }

  @Test
  void aRecurringTasksRequestsCarryTheSharedKeyFollowedByEachTasksId() {
    String key = TaskRequest.newRecurringDeliveryKey();
    TaskRequest read = TaskRequest.decode(request(key).encode());
    assertThat(read.deliveryKey()).isEqualTo(key);
    assertThat(read.idempotencyKey("sched:sync:1000")).isEqualTo(key + "sched:sync:1000");
    assertThat(read.idempotencyKey("sched:sync:2000")).isEqualTo(key + "sched:sync:2000");
    assertThat(TaskRequest.newRecurringDeliveryKey()).isNotEqualTo(key);
  }

  @Test
  void aRequestStoredWithoutADeliveryKeyIsSentUnderItsTaskId() {
    // The form earlier builds stored: no delivery_key in the head line.
    byte[] stored =
        ("{\"method\":\"POST\",\"path\":\"\",\"headers\":{},\"content_type\":null,"
                + "\"callback_url\":null}\n")
            .getBytes(StandardCharsets.UTF_8);
    TaskRequest read = TaskRequest.decode(stored);
    assertThat(read.deliveryKey()).isNull();
    assertThat(read.idempotencyKey("~7")).isEqualTo("~7");
  }

  @Test
  void everyNewDeliveryKeyIsARandomUuidOfItsOwn() {
    String first = TaskRequest.newDeliveryKey();
    String second = TaskRequest.newDeliveryKey();
    assertThat(first)
        .matches("[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}");
    assertThat(second).isNotEqualTo(first);
  }
}
