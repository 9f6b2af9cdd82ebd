package io.lineup.archive;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.lineup.core.Lineup;
import io.lineup.core.LineupOptions;
import io.lineup.core.ManualClock;
import io.lineup.core.model.JobState;
import io.lineup.core.model.LeasedJob;
import io.lineup.core.model.NewJob;
import io.lineup.core.model.QueueName;
import io.lineup.core.model.QueueSettings;
import io.lineup.testing.RedisServerExtension;
import io.lineup.testing.TcpProxy;
import io.lineup.testing.TestDatabase;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.UnaryOperator;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * What the archive promises, stated once and run against each database it supports (one subclass
 * per database): every ended job is archived with what it ended with, a job whose Redis record is
 * gone is still found, listings filter and page, retention deletes exactly the old rows, a crash
 * between commit and acknowledgement neither loses nor doubles a record, and a database cut under
 * load is caught up with nothing missing.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class ArchiveContractTest {
  @RegisterExtension static final RedisServerExtension redis = RedisServerExtension.withDefaults();

  private static final Duration PATIENCE = Duration.ofSeconds(30);

  private TestDatabase database;
  private Lineup lineup;
  private final List<Archive> archives = new ArrayList<>();
  private QueueName queue;

  /** This run's own schema or database on the subclass's server (not created yet). */
  abstract TestDatabase aDatabase();

  @BeforeAll
  void createDatabase() {
    // The crash test ends an archiver's thread with an Error on purpose; waits must not fail on it.
    Awaitility.doNotCatchUncaughtExceptionsByDefault();
    database = aDatabase().create();
  }

  @AfterAll
  void dropDatabase() {
    if (database != null) {
      database.close();
    }
  }

  @BeforeEach
  void connect() {
    lineup = anEngine(options -> options);
    queue = QueueName.of("archive", RedisServerExtension.uniqueName("q"));
  }

  @AfterEach
  void close() {
    archives.forEach(Archive::close);
    archives.clear();
    lineup.close();
  }

  private Lineup anEngine(UnaryOperator<LineupOptions.Builder> tune) {
    return Lineup.connect(tune.apply(LineupOptions.builder(redis.uri())).build());
  }

  private ArchiveSettings settingsFor(String url) {
    return ArchiveSettings.builder(url)
        .user(database.user())
        .batchSize(50)
        .retentionBatchSize(100)
        .outboxMax(100_000)
        .pollInterval(Duration.ofMillis(20))
        .claimIdle(Duration.ofMillis(300))
        .retentionInterval(Duration.ofHours(1))
        .build();
  }

  private Archive anArchive(String instance) {
    return anArchive(instance, settingsFor(database.url()), Archiver.NONE);
  }

  private Archive anArchive(String instance, ArchiveSettings settings, Archiver.AfterCommit hook) {
    Archive archive = Archive.start(lineup, settings, instance, hook);
    archives.add(archive);
    archive.archiver().enable(queue);
    // The archiver creates the schema when it first reaches the database.
    await().atMost(PATIENCE).until(() -> archive.archiver().isReady());
    return archive;
  }

  private String publishedAndAcked(Lineup engine, String id, String result) {
    engine.publish(queue, NewJob.ofText("payload of " + id).id(id));
    LeasedJob job = engine.lease(queue, 1, Duration.ZERO).jobs().get(0);
    engine.ack(job, result.getBytes(StandardCharsets.UTF_8));
    return job.id();
  }

  private long rowsOfTheQueue() throws SQLException {
    try (Connection c = database.connect();
        PreparedStatement s =
            c.prepareStatement(
                "SELECT COUNT(*) FROM lineup_archive WHERE namespace = ? AND queue = ?")) {
      s.setString(1, queue.namespace());
      s.setString(2, queue.name());
      try (ResultSet r = s.executeQuery()) {
        r.next();
        return r.getLong(1);
      }
    }
  }

  private Set<String> idsOfTheQueue() throws SQLException {
    Set<String> ids = new HashSet<>();
    try (Connection c = database.connect();
        PreparedStatement s =
            c.prepareStatement("SELECT id FROM lineup_archive WHERE namespace = ? AND queue = ?")) {
      s.setString(1, queue.namespace());
      s.setString(2, queue.name());
      try (ResultSet r = s.executeQuery()) {
        while (r.next()) {
          ids.add(r.getString(1));
        }
      }
    }
    return ids;
  }

  private void awaitRows(long rows) {
    await().atMost(PATIENCE).until(() -> rowsOfTheQueue() == rows);
  }

  @Test
  void everyEndedJobIsArchivedWithWhatItEndedWith() {
    Archive archive = anArchive("only");
    lineup.configure(queue, QueueSettings.builder().maxAttempts(1).build());
    publishedAndAcked(lineup, "done-1", "{\"ok\":true}");
    lineup.publish(queue, NewJob.ofText("will fail").id("dead-1").priority(9));
    lineup.nack(lineup.lease(queue, 1, Duration.ZERO).jobs().get(0), "boom");
    lineup.publish(queue, NewJob.ofText("never run").id("cancelled-1"));
    lineup.cancel(queue, "cancelled-1");

    awaitRows(3);

    ArchivedJob done = archive.reader().find(queue, "done-1").orElseThrow();
    assertThat(done.state()).isEqualTo(JobState.DONE);
    assertThat(done.result()).asString(StandardCharsets.UTF_8).isEqualTo("{\"ok\":true}");
    assertThat(done.payload()).asString(StandardCharsets.UTF_8).isEqualTo("payload of done-1");
    assertThat(done.attempts()).isEqualTo(1);
    assertThat(done.createdAt()).isNotNull();
    assertThat(done.startedAt()).isNotNull();
    assertThat(done.finishedAt()).isAfterOrEqualTo(done.startedAt());
    assertThat(done.archivedAt()).isNotNull();
    ArchivedJob dead = archive.reader().find(queue, "dead-1").orElseThrow();
    assertThat(dead.state()).isEqualTo(JobState.DEAD);
    assertThat(dead.priority()).isEqualTo(9);
    assertThat(dead.lastError()).isEqualTo("boom");
    assertThat(archive.reader().find(queue, "cancelled-1").orElseThrow().state())
        .isEqualTo(JobState.CANCELLED);
    assertThat(archive.stats().rowsWritten()).isGreaterThanOrEqualTo(3);
    assertThat(archive.reader().count(queue)).isEqualTo(3);
    assertThat(archive.reader().count(QueueName.of(queue.namespace(), "another-queue"))).isZero();
    // Acknowledged entries leave the outbox.
    await().atMost(PATIENCE).until(() -> lineup.archiveOutbox().length(queue) == 0);
  }

  @Test
  void textsAndBytesOfEveryKindArriveUnchanged() {
    Archive archive = anArchive("only");
    lineup.configure(queue, QueueSettings.builder().maxAttempts(1).build());
    byte[] everyByte = new byte[512];
    for (int i = 0; i < everyByte.length; i++) {
      everyByte[i] = (byte) i;
    }
    String awkward = "tab\there, new\nline, return\r, back\\slash \\N, é, 😀, \\.";
    String id = "odd.id:with_every-kind";
    lineup.publish(queue, NewJob.of(everyByte).id(id));
    lineup.nack(lineup.lease(queue, 1, Duration.ZERO).jobs().get(0), awkward);
    lineup.publish(queue, NewJob.of(everyByte).id("bytes"));
    LeasedJob acked = lineup.lease(queue, 1, Duration.ZERO).jobs().get(0);
    lineup.ack(acked, everyByte);

    awaitRows(2);

    ArchivedJob dead = archive.reader().find(queue, id).orElseThrow();
    assertThat(dead.lastError()).isEqualTo(awkward);
    assertThat(dead.payload()).isEqualTo(everyByte);
    ArchivedJob done = archive.reader().find(queue, "bytes").orElseThrow();
    assertThat(done.result()).isEqualTo(everyByte);
    assertThat(done.payload()).isEqualTo(everyByte);
    assertThat(done.lastError()).isNull();
    assertThat(done.dueAt()).isNull();
  }

  @Test
  void largePayloadsOfABatchAreArchivedWhole() {
    lineup.archiveOutbox().enable(queue, 1_000);
    byte[] large = new byte[700 * 1024];
    for (int i = 0; i < large.length; i++) {
      large[i] = (byte) (i * 31);
    }
    for (int i = 0; i < 3; i++) {
      lineup.publish(queue, NewJob.of(large).id("large-" + i));
    }
    lineup.lease(queue, 3, Duration.ZERO).jobs().forEach(job -> lineup.ack(job, large));

    Archive archive = anArchive("only"); // all three in one batch
    awaitRows(3);

    for (int i = 0; i < 3; i++) {
      ArchivedJob job = archive.reader().find(queue, "large-" + i).orElseThrow();
      assertThat(job.payload()).isEqualTo(large);
      assertThat(job.result()).isEqualTo(large);
    }
  }

  @Test
  void afterABatchOfLargePayloadsAReadHoldsAtMostTheReadCapOfThem() throws Exception {
    int mib = 1024 * 1024;
    lineup.archiveOutbox().enable(queue, 1_000);
    byte[] large = new byte[mib];
    Arrays.fill(large, (byte) 'x');
    int firstWave = 4;
    // Twice as many as a read may hold after the first wave showed 1 MiB an entry.
    int secondWave = (int) (2 * Archiver.READ_BYTES / mib) + 4;
    endedWithPayload(large, "first-", firstWave);
    CountDownLatch secondWavePublished = new CountDownLatch(1);
    List<Integer> readSizes = new CopyOnWriteArrayList<>();
    List<Long> readBytes = new CopyOnWriteArrayList<>();
    anArchive(
        "capped",
        // Batches of up to 4,000 jobs (the default), so that only the byte cap limits a read.
        settingsFor(database.url()).mutate().batchSize(4_000).writers(1).poolSize(2).build(),
        (q, entries) -> {
          if (!q.equals(queue)) {
            return;
          }
          readSizes.add(entries.size());
          readBytes.add(entries.stream().mapToLong(e -> e.payload().length).sum());
          if (readSizes.size() == 1) {
            // Hold the one archiver until the second wave waits whole in the outbox.
            await().atMost(PATIENCE).until(() -> secondWavePublished.getCount() == 0);
          }
        });
    await().atMost(PATIENCE).until(() -> readSizes.size() == 1);
    endedWithPayload(large, "second-", secondWave);
    secondWavePublished.countDown();

    awaitRows(firstWave + secondWave);
    assertThat(readSizes.get(0)).isEqualTo(firstWave);
    assertThat(readSizes.subList(1, readSizes.size()))
        .hasSizeGreaterThanOrEqualTo(2)
        .allMatch(size -> size <= Archiver.READ_BYTES / mib);
    assertThat(readBytes.subList(1, readBytes.size()))
        .allMatch(bytes -> bytes <= Archiver.READ_BYTES);
  }

  private void endedWithPayload(byte[] payload, String prefix, int jobs) {
    for (int i = 0; i < jobs; i++) {
      lineup.publish(queue, NewJob.of(payload).id(prefix + i));
      lineup.ack(lineup.lease(queue, 1, Duration.ZERO).jobs().get(0));
    }
  }

  @Test
  void aJobThatEndsTwiceBeforeTheArchiverRunsKeepsItsLastEnd() throws SQLException {
    lineup.archiveOutbox().enable(queue, 1_000);
    lineup.configure(queue, QueueSettings.builder().maxAttempts(1).build());
    lineup.publish(queue, NewJob.ofText("twice").id("twice"));
    lineup.nack(lineup.lease(queue, 1, Duration.ZERO).jobs().get(0), "first end");
    lineup.respawn(queue, List.of("twice"), null);
    LeasedJob again = lineup.lease(queue, 1, Duration.ZERO).jobs().get(0);
    lineup.ack(again, "second end".getBytes(StandardCharsets.UTF_8));
    assertThat(lineup.archiveOutbox().length(queue)).isEqualTo(2);

    // Both ends are read in one batch.
    Archive archive = anArchive("only");
    await().atMost(PATIENCE).until(() -> lineup.archiveOutbox().length(queue) == 0);

    assertThat(rowsOfTheQueue()).isEqualTo(1);
    ArchivedJob kept = archive.reader().find(queue, "twice").orElseThrow();
    assertThat(kept.state()).isEqualTo(JobState.DONE);
    assertThat(kept.result()).asString(StandardCharsets.UTF_8).isEqualTo("second end");
    assertThat(kept.lastError()).isEqualTo("first end");
  }

  @Test
  void aJobRespawnedAfterItWasArchivedIsArchivedAgainWithItsNewEnd() throws SQLException {
    lineup.archiveOutbox().enable(queue, 1_000);
    lineup.configure(queue, QueueSettings.builder().maxAttempts(1).build());
    lineup.publish(queue, NewJob.ofText("again").id("again"));
    lineup.nack(lineup.lease(queue, 1, Duration.ZERO).jobs().get(0), "first end");
    Archive archive = anArchive("respawned");
    await()
        .atMost(PATIENCE)
        .until(() ->
            archive.reader().find(queue, "again").map(ArchivedJob::state).orElse(null)
                == JobState.DEAD);

    // Its row exists: this batch's write meets the primary key and upserts instead.
    lineup.respawn(queue, List.of("again"), null);
    LeasedJob again = lineup.lease(queue, 1, Duration.ZERO).jobs().get(0);
    lineup.ack(again, "second end".getBytes(StandardCharsets.UTF_8));
    await().atMost(PATIENCE).until(() -> lineup.archiveOutbox().length(queue) == 0);

    assertThat(rowsOfTheQueue()).isEqualTo(1);
    ArchivedJob kept = archive.reader().find(queue, "again").orElseThrow();
    assertThat(kept.state()).isEqualTo(JobState.DONE);
    assertThat(kept.result()).asString(StandardCharsets.UTF_8).isEqualTo("second end");
  }

  @Test
  void aJobWhoseRedisRecordIsGoneIsStillFoundInTheArchive() {
    Archive archive = anArchive("only");
    // No retention in Redis: the record goes the moment the job is acked.
    lineup.configure(queue, QueueSettings.builder().retention(Duration.ZERO).build());
    publishedAndAcked(lineup, "gone-1", "the answer");

    awaitRows(1);

    assertThat(lineup.get(queue, "gone-1")).isEmpty();
    assertThat(archive.reader().find(queue, "gone-1"))
        .get()
        .satisfies(job -> {
          assertThat(job.state()).isEqualTo(JobState.DONE);
          assertThat(job.result()).asString(StandardCharsets.UTF_8).isEqualTo("the answer");
        });
    assertThat(archive.reader().find(queue, "never-was")).isEmpty();
  }

  @Test
  void listingFiltersByQueueStateAndTimeAndPagesWithACursor() {
    ManualClock clock = new ManualClock(Instant.parse("2030-05-01T10:00:00Z"));
    try (Lineup timed = anEngine(options -> options.timeSource(clock).maintenance(false))) {
      Archive archive = anArchive("only");
      for (int i = 0; i < 5; i++) {
        publishedAndAcked(timed, "job-" + i, "r" + i);
        clock.advance(Duration.ofMinutes(1));
      }
      timed.publish(queue, NewJob.ofText("x").id("cancelled"));
      timed.cancel(queue, "cancelled");
      awaitRows(6);

      ArchiveReader reader = archive.reader();
      ArchivePage first =
          reader.list(
              new ArchiveQuery(
                  queue.namespace(), queue.name(), JobState.DONE, null, null, null, 2));
      assertThat(first.jobs()).extracting(ArchivedJob::id).containsExactly("job-4", "job-3");
      ArchivePage second =
          reader.list(
              new ArchiveQuery(
                  queue.namespace(),
                  queue.name(),
                  JobState.DONE,
                  null,
                  null,
                  first.nextCursor(),
                  2));
      assertThat(second.jobs()).extracting(ArchivedJob::id).containsExactly("job-2", "job-1");
      ArchivePage last =
          reader.list(
              new ArchiveQuery(
                  queue.namespace(),
                  queue.name(),
                  JobState.DONE,
                  null,
                  null,
                  second.nextCursor(),
                  2));
      assertThat(last.jobs()).extracting(ArchivedJob::id).containsExactly("job-0");
      assertThat(last.nextCursor()).isNull();

      Instant from = Instant.parse("2030-05-01T10:01:00Z");
      Instant before = Instant.parse("2030-05-01T10:03:00Z");
      assertThat(
              reader
                  .list(
                      new ArchiveQuery(
                          queue.namespace(), queue.name(), null, from, before, null, 100))
                  .jobs())
          .extracting(ArchivedJob::id)
          .containsExactly("job-2", "job-1");
      assertThat(
              reader
                  .list(
                      new ArchiveQuery(
                          queue.namespace(),
                          queue.name(),
                          JobState.CANCELLED,
                          null,
                          null,
                          null,
                          100))
                  .jobs())
          .extracting(ArchivedJob::id)
          .containsExactly("cancelled");
      assertThat(
              reader
                  .list(new ArchiveQuery("someone-else", null, null, null, null, null, 100))
                  .jobs())
          .isEmpty();
      assertThatThrownBy(() ->
              reader.list(
                  new ArchiveQuery(queue.namespace(), null, null, null, null, "not-a-cursor", 10)))
          .isInstanceOf(IllegalArgumentException.class);
      assertThatThrownBy(() ->
              reader.list(new ArchiveQuery(queue.namespace(), null, null, null, null, null, 0)))
          .isInstanceOf(IllegalArgumentException.class);
    }
  }

  @Test
  void retentionDeletesExactlyTheRowsThatEndedBeforeTheCutoff() throws SQLException {
    Instant start = Instant.parse("2031-01-01T00:00:00Z");
    ManualClock clock = new ManualClock(start);
    try (Lineup timed = anEngine(options -> options.timeSource(clock).maintenance(false))) {
      Archive archive = anArchive("only");
      for (int i = 0; i < 7; i++) {
        publishedAndAcked(timed, "old-" + i, "r");
      }
      clock.advance(Duration.ofDays(4));
      for (int i = 0; i < 3; i++) {
        publishedAndAcked(timed, "new-" + i, "r");
      }
      awaitRows(10);

      long deleted = archive.retention().deleteEndedBefore(start.plus(Duration.ofDays(1)));

      assertThat(deleted).isGreaterThanOrEqualTo(7);
      assertThat(idsOfTheQueue()).containsExactlyInAnyOrder("new-0", "new-1", "new-2");
      assertThat(archive.stats().retentionDeleted()).isGreaterThanOrEqualTo(7);
    }
  }

  /** Thrown by the fault hook: ends the archiver's thread as abruptly as a crash. */
  private static final class Crash extends Error {
    private static final long serialVersionUID = 1L;

    Crash() {
      super("the archiver crashed between commit and acknowledgement (a test's fault hook)");
    }
  }

  @Test
  void anArchiverKilledBetweenCommitAndAcknowledgementLosesAndDoublesNothing() throws SQLException {
    int jobs = 120;
    lineup.archiveOutbox().enable(queue, 100_000);
    Set<String> ended = new HashSet<>();
    for (int i = 0; i < jobs; i++) {
      ended.add(publishedAndAcked(lineup, "job-" + i, "r" + i));
    }
    AtomicInteger commits = new AtomicInteger();
    Archive crashing =
        anArchive(
            "crashing",
            // One writer thread, so that the crash stops all of this archive's writing.
            settingsFor(database.url()).mutate().writers(1).poolSize(2).build(),
            (q, entries) -> {
              if (q.equals(queue) && commits.incrementAndGet() == 2) {
                throw new Crash();
              }
            });
    await().atMost(PATIENCE).until(() -> !crashing.archiver().isAlive());
    // Two batches of 50 were committed; the second was never acknowledged.
    assertThat(rowsOfTheQueue()).isEqualTo(100);
    assertThat(lineup.archiveOutbox().length(queue)).isEqualTo(jobs - 50);

    Archive next = anArchive("restarted");

    await().atMost(PATIENCE).until(() -> lineup.archiveOutbox().length(queue) == 0);
    assertThat(rowsOfTheQueue()).isEqualTo(jobs);
    assertThat(idsOfTheQueue()).isEqualTo(ended);
    // The batch the crash left pending was written again, harmlessly.
    assertThat(next.stats().rowsWritten()).isGreaterThanOrEqualTo(jobs - 50);
  }

  @Test
  void aDatabaseCutUnderLoadIsCaughtUpWithNothingMissing() throws Exception {
    try (TcpProxy proxy = TcpProxy.to("127.0.0.1", databasePort())) {
      Archive archive =
          anArchive(
              "behind-a-proxy",
              settingsFor(database.urlVia("127.0.0.1", proxy.port())),
              Archiver.NONE);
      Set<String> ended = java.util.concurrent.ConcurrentHashMap.newKeySet();
      AtomicBoolean producing = new AtomicBoolean(true);
      AtomicInteger next = new AtomicInteger();
      Thread load =
          Thread.ofPlatform()
              .start(() -> {
                while (producing.get()) {
                  ended.add(publishedAndAcked(lineup, "job-" + next.getAndIncrement(), "r"));
                }
              });
      await().atMost(PATIENCE).until(() -> rowsOfTheQueue() > 20);

      proxy.cut();
      long errorsBefore = archive.stats().errors();
      int endedAtCut = ended.size();
      // The hot path goes on: jobs keep ending, and their entries wait in the outbox.
      await().atMost(PATIENCE).until(() -> ended.size() > endedAtCut + 200);
      await().atMost(PATIENCE).until(() -> archive.stats().errors() > errorsBefore);
      assertThat(lineup.archiveOutbox().length(queue)).isPositive();

      proxy.restore();
      await().atMost(PATIENCE).until(() -> ended.size() > endedAtCut + 400);
      producing.set(false);
      load.join();

      await().atMost(PATIENCE).until(() -> rowsOfTheQueue() == ended.size());
      assertThat(idsOfTheQueue()).isEqualTo(ended);
      await().atMost(PATIENCE).until(() -> lineup.archiveOutbox().length(queue) == 0);
      assertThat(lineup.archiveOutbox().dropped(queue)).isZero();
    }
  }

  private int databasePort() {
    return database.kind() == TestDatabase.Kind.POSTGRESQL ? 5432 : 3306;
  }
}
