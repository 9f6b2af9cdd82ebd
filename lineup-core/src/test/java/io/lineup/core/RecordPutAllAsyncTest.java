package io.lineup.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lineup.core.model.InvalidArgumentException;
import io.lineup.core.model.NewJob;
import io.lineup.core.model.PublishResult;
import io.lineup.core.model.QueueName;
import io.lineup.testing.RedisServerExtension;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Records written together without blocking are stored like ones written one by one with {@link
 * RecordStore#put}, and the caller may send other commands before waiting for them (the room
 * service gathers concurrent joins' poll records into one write, sent beside their publishes).
 */
abstract class RecordPutAllAsyncTest extends EngineSuite {
  private Lineup lineup;
  private RecordStore records;

  @BeforeEach
  void connect() {
    lineup = anEngine();
    records = lineup.records(RedisServerExtension.uniqueName("polls"));
  }

  @AfterEach
  void close() {
    lineup.close();
  }

  @Test
  void recordsPutTogetherAreStoredOrReplacedOnceTheirFutureCompletes() throws Exception {
    records.put("t7", "room before");
    Map<String, String> batch = new LinkedHashMap<>();
    for (int i = 0; i < 200; i++) {
      batch.put("t" + i, "room " + i);
    }
    CompletableFuture<Void> first = records.putAllAsync(batch);
    CompletableFuture<Void> second = records.putAllAsync(Map.of("t7", "room seven"));
    CompletableFuture.allOf(first, second).get(10, TimeUnit.SECONDS);

    assertThat(records.all()).hasSize(200);
    assertThat(records.get("t0")).contains("room 0");
    assertThat(records.get("t199")).contains("room 199");
    assertThat(records.get("t7")).contains("room seven");
  }

  @Test
  void recordsPutWithoutBlockingAndAPublishSentBeforeWaitingForThemAreAllStored() throws Exception {
    QueueName queue = QueueName.of("rooms", RedisServerExtension.uniqueName("line"));
    CompletableFuture<Void> written = records.putAllAsync(Map.of("ticket-1", "waiting"));
    PublishResult published = lineup.publish(queue, NewJob.ofText("{}").id("ticket-1"));
    written.get(10, TimeUnit.SECONDS);

    assertThat(published.position()).isZero();
    assertThat(records.get("ticket-1")).contains("waiting");
  }

  @Test
  void noRecordsSendNothingAndAreDoneAtOnce() {
    assertThat(records.putAllAsync(Map.of())).isCompleted();
    assertThat(records.all()).isEmpty();
  }

  @Test
  void recordsWithANullIdOrValueAreRefusedBeforeAnythingIsSent() {
    Map<String, String> nullId = new HashMap<>();
    nullId.put("a", "fine");
    nullId.put(null, "b");
    Map<String, String> nullValue = new HashMap<>();
    nullValue.put("a", null);
    assertThatThrownBy(() -> records.putAllAsync(nullId))
        .isInstanceOf(InvalidArgumentException.class);
    assertThatThrownBy(() -> records.putAllAsync(nullValue))
        .isInstanceOf(InvalidArgumentException.class);
    assertThatThrownBy(() -> records.putAllAsync(null))
        .isInstanceOf(InvalidArgumentException.class);
    assertThat(records.all()).isEmpty();
  }
}
