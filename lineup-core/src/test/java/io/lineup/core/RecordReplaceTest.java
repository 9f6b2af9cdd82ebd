package io.lineup.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lineup.core.model.InvalidArgumentException;
import io.lineup.testing.RedisServerExtension;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A record of a server collection is replaced only when it still holds the value the caller read (a
 * compare and set), so instances sharing one record never lose each other's changes.
 */
abstract class RecordReplaceTest extends EngineSuite {
  private Lineup lineup;
  private RecordStore records;

  @BeforeEach
  void connect() {
    lineup = anEngine();
    records = lineup.records(RedisServerExtension.uniqueName("breakers"));
  }

  @AfterEach
  void close() {
    lineup.close();
  }

  @Test
  void anAbsentRecordIsCreatedOnlyWhenExpectedAbsent() {
    assertThat(records.replace("shop/images", "CLOSED", "OPEN")).isFalse();
    assertThat(records.get("shop/images")).isEmpty();

    assertThat(records.replace("shop/images", null, "OPEN")).isTrue();
    assertThat(records.get("shop/images")).contains("OPEN");
    assertThat(records.replace("shop/images", null, "OPEN again")).isFalse();
    assertThat(records.get("shop/images")).contains("OPEN");
  }

  @Test
  void aRecordIsReplacedOrDeletedOnlyWhileItHoldsTheExpectedValue() {
    records.put("shop/images", "HALF_OPEN");

    assertThat(records.replace("shop/images", "OPEN", "CLOSED")).isFalse();
    assertThat(records.get("shop/images")).contains("HALF_OPEN");
    assertThat(records.replace("shop/images", "HALF_OPEN", "HALF_OPEN:probe")).isTrue();
    assertThat(records.get("shop/images")).contains("HALF_OPEN:probe");

    assertThat(records.replace("shop/images", "HALF_OPEN", null)).isFalse();
    assertThat(records.get("shop/images")).contains("HALF_OPEN:probe");
    assertThat(records.replace("shop/images", "HALF_OPEN:probe", null)).isTrue();
    assertThat(records.get("shop/images")).isEmpty();
    // Other records of the collection are not touched.
    records.put("shop/videos", "OPEN");
    assertThat(records.replace("shop/images", null, "x")).isTrue();
    assertThat(records.all()).containsOnlyKeys("shop/images", "shop/videos");
  }

  @Test
  void concurrentIncrementsByReadAndReplaceLoseNoChange() throws Exception {
    int writers = 8;
    int each = 25;
    ExecutorService pool = Executors.newFixedThreadPool(writers);
    try {
      List<Callable<Integer>> work = new ArrayList<>();
      for (int w = 0; w < writers; w++) {
        work.add(() -> {
          int conflicts = 0;
          for (int i = 0; i < each; i++) {
            while (true) {
              Optional<String> read = records.get("counter");
              String next = Integer.toString(read.map(Integer::parseInt).orElse(0) + 1);
              if (records.replace("counter", read.orElse(null), next)) {
                break;
              }
              conflicts++;
            }
          }
          return conflicts;
        });
      }
      int conflicts = 0;
      for (Future<Integer> done : pool.invokeAll(work)) {
        conflicts += done.get();
      }
      assertThat(records.get("counter")).contains(Integer.toString(writers * each));
      System.out.printf(
          "%d increments by %d writers: %d replaces refused and read again%n",
          writers * each, writers, conflicts);
    } finally {
      pool.shutdownNow();
    }
  }

  @Test
  void aReplaceWithoutAnIdIsRefusedBeforeAnythingIsSent() {
    assertThatThrownBy(() -> records.replace(null, "a", "b"))
        .isInstanceOf(InvalidArgumentException.class);
  }
}
