package io.lineup.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lineup.testing.RedisServerExtension;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A record written without blocking is stored like one written with {@link RecordStore#put}, and
 * the caller may send other commands before waiting for it (a join sends its poll record and its
 * publish together).
 */
abstract class RecordPutAsyncTest extends EngineSuite {
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
  void recordsPutWithoutBlockingAreStoredOrReplacedOnceTheirFuturesComplete() throws Exception {
    List<CompletableFuture<Void>> writes = new ArrayList<>();
    for (int i = 0; i < 200; i++) {
      writes.add(records.putAsync("t" + i, "room " + i));
    }
    writes.add(records.putAsync("t7", "room seven"));
    CompletableFuture.allOf(writes.toArray(CompletableFuture[]::new)).get(10, TimeUnit.SECONDS);

    assertThat(records.all()).hasSize(200);
    assertThat(records.get("t0")).contains("room 0");
    assertThat(records.get("t199")).contains("room 199");
    assertThat(records.get("t7")).contains("room seven");
  }

  @Test
  void aRecordPutWithoutBlockingAndAPublishSentBeforeWaitingForItAreBothStored() throws Exception {
    QueueName queue = QueueName.of("rooms", RedisServerExtension.uniqueName("line"));
    CompletableFuture<Void> written = records.putAsync("ticket-1", "waiting");
    PublishResult published = lineup.publish(queue, NewJob.ofText("{}").id("ticket-1"));
    written.get(10, TimeUnit.SECONDS);

    assertThat(published.position()).isZero();
    assertThat(records.get("ticket-1")).contains("waiting");
  }

  @Test
  void aRecordWithoutAnIdOrValueIsRefusedBeforeAnythingIsSent() {
    assertThatThrownBy(() -> records.putAsync(null, "a"))
        .isInstanceOf(InvalidArgumentException.class);
    assertThatThrownBy(() -> records.putAsync("a", null))
        .isInstanceOf(InvalidArgumentException.class);
    assertThat(records.all()).isEmpty();
  }
}
