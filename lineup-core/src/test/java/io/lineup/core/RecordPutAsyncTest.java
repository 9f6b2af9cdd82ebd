package io.lineup.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lineup.core.model.InvalidArgumentException;
import io.lineup.core.model.RedisUnavailableException;
import io.lineup.testing.RedisServerExtension;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Records put without blocking by many callers at once share HSETs, every one is stored, and a
 * write Redis leaves unanswered fails its callers in time without holding up the writes after it.
 * On a Redis of its own, which one test freezes.
 */
class RecordPutAsyncTest {
  @RegisterExtension static RedisServerExtension redis = RedisServerExtension.withDefaults();

  static final Duration TIMEOUT = Duration.ofMillis(500);

  static Lineup lineup;

  @BeforeAll
  static void start() {
    lineup =
        Lineup.connect(
            LineupOptions.builder(redis.uri()).commandTimeout(TIMEOUT).maintenance(false).build());
  }

  @AfterAll
  static void stop() {
    lineup.close();
  }

  /** Each test's own collection, so that one test's records do not count in another's. */
  RecordStore polls = lineup.records(RedisServerExtension.uniqueName("polls"));

  static long hsetCalls() throws Exception {
    Matcher m =
        Pattern.compile("cmdstat_hset:calls=(\\d+)")
            .matcher(redis.process().command("INFO commandstats"));
    return m.find() ? Long.parseLong(m.group(1)) : 0;
  }

  @Test
  void recordsOfManyConcurrentCallersAreAllStoredInFewerWritesThanCallers() throws Exception {
    int callers = 32;
    int each = 100;
    long hsetsBefore = hsetCalls();
    ExecutorService pool = Executors.newFixedThreadPool(callers);
    try {
      List<Future<?>> done = new ArrayList<>();
      for (int c = 0; c < callers; c++) {
        int caller = c;
        done.add(
            pool.submit(() -> {
              for (int i = 0; i < each; i++) {
                polls.putAsync("t" + caller + "-" + i, "room " + i).get(5, TimeUnit.SECONDS);
              }
              return null;
            }));
      }
      for (Future<?> f : done) {
        f.get();
      }
    } finally {
      pool.shutdownNow();
    }

    assertThat(polls.all()).hasSize(callers * each);
    assertThat(polls.get("t31-99")).contains("room 99");
    long hsets = hsetCalls() - hsetsBefore;
    System.out.printf("%d records stored by %d HSETs%n", callers * each, hsets);
    assertThat(hsets).isLessThan(callers * each);
  }

  @Test
  void theLaterOfTwoPutsOfOneRecordWins() throws Exception {
    List<CompletableFuture<Void>> puts = new ArrayList<>();
    for (int i = 0; i < 50; i++) {
      puts.add(polls.putAsync("same", "text " + i));
    }
    CompletableFuture.allOf(puts.toArray(CompletableFuture[]::new)).get(5, TimeUnit.SECONDS);

    assertThat(polls.get("same")).contains("text 49");
  }

  @Test
  void aNullIdOrValueIsRefusedBeforeAnythingIsSent() {
    assertThatThrownBy(() -> polls.putAsync(null, "room"))
        .isInstanceOf(InvalidArgumentException.class);
    assertThatThrownBy(() -> polls.putAsync("t1", null))
        .isInstanceOf(InvalidArgumentException.class);
    assertThat(polls.all()).isEmpty();
  }

  @Test
  void writesRedisLeavesUnansweredFailInTimeAndTheNextOnesAreStoredOnceItAnswers()
      throws Exception {
    List<CompletableFuture<Void>> stalled = new ArrayList<>();
    redis.process().freeze();
    try {
      for (int i = 0; i < 5; i++) {
        stalled.add(polls.putAsync("frozen-" + i, "room"));
      }
      for (CompletableFuture<Void> write : stalled) {
        assertThatThrownBy(() -> write.get(5, TimeUnit.SECONDS))
            .isInstanceOf(ExecutionException.class)
            .hasCauseInstanceOf(RedisUnavailableException.class);
      }
    } finally {
      redis.process().thaw();
    }

    polls.putAsync("after", "room").get(5, TimeUnit.SECONDS);
    assertThat(polls.get("after")).contains("room");
  }
}
