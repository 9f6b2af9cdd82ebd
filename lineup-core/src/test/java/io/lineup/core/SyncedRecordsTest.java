package io.lineup.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.lineup.testing.RedisServerExtension;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * {@link SyncedRecords}: two copies of one collection (as on two instances) see each other's writes
 * and deletes, leave out a record that never parsed, keep the last good value of one whose new text
 * does not parse, parse a record again only when its text changed, and carry on after Redis
 * restarts. On a Redis of its own, which one test restarts.
 */
class SyncedRecordsTest {
  @RegisterExtension static RedisServerExtension redis = RedisServerExtension.withAppendOnlyFile();

  static final Duration INTERVAL = Duration.ofMillis(20);

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

  final RecordStore store = lineup.records(RedisServerExtension.uniqueName("synced"));
  final AtomicInteger parses = new AtomicInteger();
  final List<AutoCloseable> opened = new CopyOnWriteArrayList<>();

  @AfterEach
  void closeCopies() throws Exception {
    for (AutoCloseable each : opened) {
      each.close();
    }
  }

  /** A copy parsing each record's text as a number, counting its parses. */
  SyncedRecords<Integer> aCopy() {
    return aCopy(INTERVAL);
  }

  /** The same, syncing on its own every {@code interval}. */
  SyncedRecords<Integer> aCopy(Duration interval) {
    SyncedRecords<Integer> copy =
        SyncedRecords.start(
            store,
            (id, text) -> {
              parses.incrementAndGet();
              return Integer.parseInt(text);
            },
            interval);
    opened.add(copy);
    return copy;
  }

  @Test
  void twoCopiesSeeEachOthersWritesAndDeletes() {
    SyncedRecords<Integer> here = aCopy();
    SyncedRecords<Integer> there = aCopy();

    store.put("a", "1");
    here.syncNow();
    assertThat(here.get("a")).contains(1);
    await().untilAsserted(() -> assertThat(there.get("a")).contains(1));

    store.put("a", "2");
    store.put("b", "3");
    await()
        .untilAsserted(
            () -> assertThat(here.snapshot()).containsEntry("a", 2).containsEntry("b", 3));

    store.delete("a");
    await()
        .untilAsserted(() -> assertThat(there.snapshot()).doesNotContainKey("a").containsKey("b"));
  }

  @Test
  void aRecordThatNeverParsedIsAbsentAndTheOthersAreKept() {
    store.put("good", "7");
    store.put("bad", "not a number");
    SyncedRecords<Integer> copy = aCopy();

    assertThat(copy.snapshot()).containsOnlyKeys("good");
    int afterFirst = parses.get();
    copy.syncNow();
    copy.syncNow();
    assertThat(parses.get()).as("the bad text is not parsed again").isEqualTo(afterFirst);

    store.put("bad", "8");
    copy.syncNow();
    assertThat(copy.get("bad")).as("once its text is fixed").contains(8);
  }

  @Test
  void aRecordThatTurnsBadKeepsItsLastGoodValueUntilItsTextIsGoodAgain() {
    store.put("a", "1");
    // Only the syncs asked for run (see aRecordDeletedWhileItsTextIsBadIsRemoved).
    SyncedRecords<Integer> copy = aCopy(Duration.ofHours(1));
    Map<String, Integer> good = copy.snapshot();
    List<SyncedRecords.Changes> heard = new CopyOnWriteArrayList<>();
    copy.addListener(heard::add);

    store.put("a", "written by a newer version");
    copy.syncNow();
    int afterBad = parses.get();
    copy.syncNow();

    assertThat(heard).as("a text that does not parse changes nothing").isEmpty();
    assertThat(copy.get("a")).as("the last good value").contains(1);
    assertThat(copy.snapshot()).as("the same snapshot").isSameAs(good);
    assertThat(parses.get()).as("the bad text is not parsed again").isEqualTo(afterBad);
    assertThat(aCopy().get("a")).as("a copy that never saw it good").isEmpty();

    store.put("a", "2");
    copy.syncNow();

    assertThat(copy.get("a")).as("once its text is good again").contains(2);
    assertThat(heard)
        .singleElement()
        .extracting(SyncedRecords.Changes::changed)
        .isEqualTo(Set.of("a"));
  }

  @Test
  void aRecordDeletedWhileItsTextIsBadIsRemoved() {
    store.put("a", "1");
    // Only the syncs asked for run: an interval's sync could take the delete first and tell the
    // listener on its own thread after the assertion below.
    SyncedRecords<Integer> copy = aCopy(Duration.ofHours(1));
    store.put("a", "not a number");
    copy.syncNow();
    List<SyncedRecords.Changes> heard = new CopyOnWriteArrayList<>();
    copy.addListener(heard::add);

    store.delete("a");
    copy.syncNow();

    assertThat(copy.get("a")).isEmpty();
    assertThat(heard)
        .singleElement()
        .extracting(SyncedRecords.Changes::removed)
        .isEqualTo(Set.of("a"));
  }

  @Test
  void aRecordBackOnItsLastGoodTextIsParsedAgainWhenItTurnsBadAgain() {
    store.put("a", "1");
    SyncedRecords<Integer> copy = aCopy();
    store.put("a", "not a number");
    copy.syncNow();
    store.put("a", "1");
    copy.syncNow();
    int beforeBadAgain = parses.get();

    store.put("a", "not a number");
    copy.syncNow();

    assertThat(parses.get())
        .as("the same bad text, read (and logged) again")
        .isEqualTo(beforeBadAgain + 1);
    assertThat(copy.get("a")).contains(1);
  }

  @Test
  void unchangedRecordsAreNotParsedAgain() {
    for (int i = 0; i < 10; i++) {
      store.put("r" + i, Integer.toString(i));
    }
    SyncedRecords<Integer> copy = aCopy();
    copy.syncNow();
    int parsed = parses.get();

    store.put("r3", "33");
    copy.syncNow();
    copy.syncNow();

    assertThat(parses.get() - parsed).as("only the changed record").isEqualTo(1);
    assertThat(copy.get("r3")).contains(33);
  }

  @Test
  void listenersHearWhichIdsWereAddedChangedAndRemoved() {
    store.put("x", "1");
    store.put("y", "2");
    // Only the sync asked for runs: an interval's sync between the writes would split the changes.
    SyncedRecords<Integer> copy = aCopy(Duration.ofHours(1));
    List<SyncedRecords.Changes> heard = new CopyOnWriteArrayList<>();
    copy.addListener(heard::add);

    store.put("x", "10");
    store.delete("y");
    store.put("z", "3");
    SyncedRecords.Changes changes = copy.syncNow();

    assertThat(changes.added()).containsExactly("z");
    assertThat(changes.changed()).containsExactly("x");
    assertThat(changes.removed()).containsExactly("y");
    assertThat(heard).contains(changes);
  }

  @Test
  void syncListenersHearEverySyncWithItsSnapshotAlsoWhenNothingChanged() {
    store.put("x", "1");
    SyncedRecords<Integer> copy = aCopy();
    List<Map<String, Integer>> heard = new CopyOnWriteArrayList<>();
    copy.addSyncListener(heard::add);

    SyncedRecords.Changes changes = copy.syncNow();

    assertThat(changes.isEmpty()).isTrue();
    assertThat(heard).contains(Map.of("x", 1));
    await()
        .alias("the interval's syncs, which change nothing")
        .untilAsserted(() -> assertThat(heard).hasSizeGreaterThan(2));
    store.put("y", "2");
    copy.syncNow();
    assertThat(heard).contains(Map.of("x", 1, "y", 2));
  }

  @Test
  void theLastCopyStaysWhileRedisIsAwayAndSyncingResumesAfterItRestarts() {
    store.put("kept", "1");
    SyncedRecords<Integer> copy = aCopy();
    assertThat(copy.get("kept")).contains(1);

    redis.process().stop();
    try {
      await()
          .during(Duration.ofMillis(200))
          .atMost(Duration.ofSeconds(5))
          .untilAsserted(() -> assertThat(copy.get("kept")).contains(1));
    } finally {
      redis.process().start();
    }

    await()
        .atMost(Duration.ofSeconds(30))
        .ignoreExceptions()
        .untilAsserted(() -> {
          store.put("after", "2");
          assertThat(copy.get("after")).contains(2);
        });
    assertThat(copy.get("kept")).contains(1);
  }
}
