package io.lineup.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lineup.core.model.InvalidArgumentException;
import io.lineup.core.model.RedisUnavailableException;
import io.lineup.testing.BusyRedis;
import io.lineup.testing.RedisServerExtension;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * {@link RecordStore#getAsync}: reads what {@link RecordStore#get} reads, returns before Redis
 * answers, and fails with {@link RedisUnavailableException} once Redis has not answered within the
 * command timeout. On a Redis of its own, which one test keeps busy.
 */
class RecordGetAsyncTest {
  @RegisterExtension static RedisServerExtension redis = RedisServerExtension.withDefaults();

  static Lineup lineup;

  @BeforeAll
  static void start() {
    lineup =
        Lineup.connect(
            LineupOptions.builder(redis.uri())
                .commandTimeout(Duration.ofMillis(500))
                .maintenance(false)
                .build());
  }

  @AfterAll
  static void stop() {
    lineup.close();
  }

  RecordStore tokens = lineup.records(RedisServerExtension.uniqueName("tokens"));

  @Test
  void aRecordReadWithoutBlockingIsTheStoredOneOrEmpty() {
    tokens.put("t-1", "{\"namespace\": \"shop\"}");

    assertThat(tokens.getAsync("t-1").join()).contains("{\"namespace\": \"shop\"}");
    assertThat(tokens.getAsync("t-2").join()).isEmpty();
    assertThat(tokens.getAsync("t-1").join()).isEqualTo(tokens.get("t-1"));
  }

  @Test
  void aReadRedisDoesNotAnswerReturnsAtOnceAndFailsAfterTheCommandTimeout() throws Exception {
    tokens.put("t-1", "stored");
    Thread spin = BusyRedis.keepBusy(redis.process(), Duration.ofSeconds(2));
    try {
      CompletableFuture<Optional<String>> read = tokens.getAsync("t-1");
      boolean doneAtReturn = read.isDone();

      assertThatThrownBy(read::join)
          .isInstanceOf(CompletionException.class)
          .hasCauseInstanceOf(RedisUnavailableException.class);
      assertThat(doneAtReturn).as("returned before Redis answered").isFalse();
    } finally {
      spin.join();
    }
    assertThat(tokens.getAsync("t-1").join()).as("Redis answers again").contains("stored");
  }

  @Test
  void aNullIdIsRefusedBeforeAnythingIsSent() {
    assertThatThrownBy(() -> tokens.getAsync(null)).isInstanceOf(InvalidArgumentException.class);
  }
}
