package io.lineup.core;

import static io.lineup.core.Fixtures.aFreshQueue;
import static io.lineup.core.Fixtures.aJob;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lettuce.core.ScriptOutputType;
import io.lineup.core.model.AckRequest;
import io.lineup.core.model.InvalidArgumentException;
import io.lineup.core.model.JobState;
import io.lineup.core.model.LeasedJob;
import io.lineup.core.model.OutboxEntry;
import io.lineup.core.model.QueueName;
import io.lineup.core.model.QueueSettings;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * While archiving is on for a queue, every script that ends a job adds one entry with what the
 * archive keeps to the queue's outbox, and the outbox stays within its bound; while it is off,
 * nothing is written.
 */
abstract class ArchiveOutboxTest extends EngineSuite {
  private static final String GROUP = "archivers";
  private static final Instant START = Instant.parse("2030-01-01T00:00:00Z");

  private ManualClock clock;
  private QueueName queue;
  private Lineup lineup;
  private ArchiveOutbox outbox;

  @BeforeEach
  void connect() {
    clock = new ManualClock(START);
    queue = aFreshQueue();
    lineup = anEngine(options -> options.timeSource(clock).maintenance(false));
    outbox = lineup.archiveOutbox();
  }

  @AfterEach
  void close() {
    lineup.close();
  }

  private LeasedJob leaseOne() {
    return lineup.lease(queue, 1, Duration.ZERO).jobs().get(0);
  }

  private Map<String, OutboxEntry> everythingInTheOutbox() {
    return outbox.readNew(queue, GROUP, "reader", ArchiveOutbox.MAX_BATCH).stream()
        .collect(Collectors.toMap(OutboxEntry::id, Function.identity()));
  }

  @Test
  void everyWayAJobEndsAddsOneEntryWithWhatTheArchiveKeeps() {
    outbox.enable(queue, 1_000);
    lineup.configure(queue, QueueSettings.builder().maxAttempts(1).build());

    lineup.publish(queue, aJob("done-payload").id("done").priority(7));
    LeasedJob done = leaseOne();
    clock.advance(Duration.ofSeconds(2));
    lineup.ack(done, "the result".getBytes(StandardCharsets.UTF_8));

    lineup.publish(queue, aJob("dead-payload").id("dead"));
    LeasedJob dead = leaseOne();
    lineup.nack(dead, "it broke");

    lineup.publish(queue, aJob("cancel-payload").id("cancelled"));
    lineup.cancel(queue, "cancelled");

    lineup.publish(queue, aJob("lease-expiry").id("timed-out"));
    leaseOne();
    clock.advance(Duration.ofMinutes(5));
    lineup.lease(queue, 1, Duration.ZERO); // reclaims the expired lease: out of attempts, dead

    lineup.publish(queue, aJob("ttl-payload").id("expired").ttl(Duration.ofSeconds(1)));
    clock.advance(Duration.ofSeconds(2));
    lineup.lease(queue, 1, Duration.ZERO); // the job past its TTL ends as it is leased

    Map<String, OutboxEntry> entries = everythingInTheOutbox();

    assertThat(entries).containsOnlyKeys("done", "dead", "cancelled", "timed-out", "expired");
    OutboxEntry acked = entries.get("done");
    assertThat(acked.state()).isEqualTo(JobState.DONE);
    assertThat(acked.priority()).isEqualTo(7);
    assertThat(acked.attempts()).isEqualTo(1);
    assertThat(acked.maxAttempts()).isEqualTo(1);
    assertThat(acked.createdAt()).isEqualTo(START);
    assertThat(acked.startedAt()).isEqualTo(START);
    assertThat(acked.finishedAt()).isEqualTo(START.plusSeconds(2));
    assertThat(acked.result()).asString(StandardCharsets.UTF_8).isEqualTo("the result");
    assertThat(acked.payload()).asString(StandardCharsets.UTF_8).isEqualTo("done-payload");
    assertThat(acked.lastError()).isNull();
    assertThat(acked.queue()).isEqualTo(queue);

    assertThat(entries.get("dead").state()).isEqualTo(JobState.DEAD);
    assertThat(entries.get("dead").lastError()).isEqualTo("it broke");
    assertThat(entries.get("dead").payload())
        .asString(StandardCharsets.UTF_8)
        .isEqualTo("dead-payload");
    assertThat(entries.get("cancelled").state()).isEqualTo(JobState.CANCELLED);
    assertThat(entries.get("cancelled").payload()).isNull();
    assertThat(entries.get("timed-out").state()).isEqualTo(JobState.DEAD);
    assertThat(entries.get("timed-out").lastError()).contains("lease expired");
    assertThat(entries.get("expired").state()).isEqualTo(JobState.EXPIRED);
  }

  @Test
  void aQueueWithoutArchivingWritesNoOutbox() {
    lineup.publish(queue, aJob("x"));
    lineup.ack(leaseOne());

    assertThat(outbox.maxEntries(queue)).isZero();
    assertThat(outbox.length(queue)).isZero();
    assertThat(raw().exists(keyOfTheOutbox())).isZero();
  }

  @Test
  void aFullOutboxTakesNoMoreEntriesAndCountsWhatItDropped() {
    outbox.enable(queue, 3);
    for (int i = 0; i < 5; i++) {
      lineup.publish(queue, aJob("job " + i));
    }
    List<LeasedJob> leased = lineup.lease(queue, 5, Duration.ZERO).jobs();
    leased.forEach(lineup::ack);

    assertThat(outbox.length(queue)).isEqualTo(3);
    assertThat(outbox.dropped(queue)).isEqualTo(2);
    // The jobs themselves ended as always.
    assertThat(lineup.get(queue, leased.get(4).id()).orElseThrow().state())
        .isEqualTo(JobState.DONE);
  }

  @Test
  void acknowledgedEntriesLeaveTheOutboxAndAnotherConsumerTakesOverWhatADeadOneHeld() {
    outbox.enable(queue, 100);
    lineup.publish(queue, aJob("a").id("a"));
    lineup.publish(queue, aJob("b").id("b"));
    lineup.lease(queue, 2, Duration.ZERO).jobs().forEach(lineup::ack);

    List<OutboxEntry> readByFirst = outbox.readNew(queue, GROUP, "first", 1);
    assertThat(readByFirst).extracting(OutboxEntry::id).containsExactly("a");
    // "first" dies holding "a"; "second" reads the rest, then takes "a" over.
    List<OutboxEntry> readBySecond = outbox.readNew(queue, GROUP, "second", 10);
    assertThat(readBySecond).extracting(OutboxEntry::id).containsExactly("b");
    // Idle for at least zero: every pending entry, also the one "second" holds itself.
    List<OutboxEntry> claimed = outbox.claimIdle(queue, GROUP, "second", Duration.ZERO, 10);
    assertThat(claimed).extracting(OutboxEntry::id).containsExactly("a", "b");
    assertThat(outbox.readPending(queue, GROUP, "second", 10))
        .extracting(OutboxEntry::id)
        .containsExactly("a", "b");

    long deleted = outbox.acknowledge(queue, GROUP, claimed);

    assertThat(deleted).isEqualTo(2);
    assertThat(outbox.length(queue)).isZero();
    assertThat(outbox.readPending(queue, GROUP, "second", 10)).isEmpty();
    assertThat(outbox.oldestEntryAt(queue)).isEmpty();
  }

  @Test
  void theJobsAckedInOneCallShareOneStreamEntryAndAreReadEachWithItsOwnValues() {
    outbox.enable(queue, 1_000);
    for (int i = 0; i < 5; i++) {
      lineup.publish(queue, aJob("payload " + i).id("job-" + i).priority(i));
    }
    List<LeasedJob> leased = lineup.lease(queue, 5, Duration.ZERO).jobs();
    clock.advance(Duration.ofSeconds(3));

    lineup.ackAll(
        queue,
        leased.stream()
            .map(job -> new AckRequest(job.id(), job.token(), utf8("result of " + job.id())))
            .toList());

    assertThat(outbox.entryCount(queue)).isEqualTo(1);
    assertThat(outbox.length(queue)).isEqualTo(5);
    List<OutboxEntry> read = outbox.readNew(queue, GROUP, "reader", 1);
    // In the order they were acked (the lease took the higher priorities first).
    assertThat(read)
        .extracting(OutboxEntry::id)
        .containsExactlyElementsOf(leased.stream().map(LeasedJob::id).toList());
    assertThat(read).extracting(OutboxEntry::entryId).containsOnly(read.get(0).entryId());
    Map<String, OutboxEntry> byId =
        read.stream().collect(Collectors.toMap(OutboxEntry::id, Function.identity()));
    for (int i = 0; i < 5; i++) {
      OutboxEntry entry = byId.get("job-" + i);
      assertThat(entry.state()).isEqualTo(JobState.DONE);
      assertThat(entry.priority()).isEqualTo(i);
      assertThat(entry.attempts()).isEqualTo(1);
      assertThat(entry.maxAttempts()).isEqualTo(3); // the queue's default, the job named none
      assertThat(entry.createdAt()).isEqualTo(START);
      assertThat(entry.startedAt()).isEqualTo(START);
      assertThat(entry.finishedAt()).isEqualTo(START.plusSeconds(3));
      assertThat(entry.payload()).asString(StandardCharsets.UTF_8).isEqualTo("payload " + i);
      assertThat(entry.result()).asString(StandardCharsets.UTF_8).isEqualTo("result of job-" + i);
    }

    // Every job of the entry is given: the entry and its five jobs go at once.
    long deleted = outbox.acknowledge(queue, GROUP, read);

    assertThat(deleted).isEqualTo(5);
    assertThat(outbox.length(queue)).isZero();
    assertThat(outbox.entryCount(queue)).isZero();
  }

  @Test
  void jobsAckedTogetherWithoutResultsAreReadEachWithItsLeaseStartAndAttempt() {
    outbox.enable(queue, 1_000);
    for (int i = 0; i < 3; i++) {
      lineup.publish(queue, aJob("given " + i).id("given-" + i));
      lineup.publish(queue, aJob("generated " + i));
    }
    clock.advance(Duration.ofSeconds(2));
    List<LeasedJob> leased = lineup.lease(queue, 6, Duration.ZERO).jobs();
    clock.advance(Duration.ofSeconds(3));

    lineup.ackAll(queue, leased.stream().map(AckRequest::of).toList());

    List<OutboxEntry> read = outbox.readNew(queue, GROUP, "reader", 1);
    assertThat(read)
        .extracting(OutboxEntry::id)
        .containsExactlyElementsOf(leased.stream().map(LeasedJob::id).toList());
    for (int i = 0; i < leased.size(); i++) {
      OutboxEntry entry = read.get(i);
      assertThat(entry.state()).isEqualTo(JobState.DONE);
      assertThat(entry.attempts()).isEqualTo(1);
      assertThat(entry.createdAt()).isEqualTo(START);
      assertThat(entry.startedAt()).isEqualTo(START.plusSeconds(2));
      assertThat(entry.finishedAt()).isEqualTo(START.plusSeconds(5));
      assertThat(entry.payload()).isEqualTo(leased.get(i).payload());
      assertThat(entry.result()).isNullOrEmpty();
    }
  }

  @Test
  void anEntryAcknowledgedTwiceTakesItsJobsOffTheCountOnce() {
    outbox.enable(queue, 100);
    for (int i = 0; i < 3; i++) {
      lineup.publish(queue, aJob("first " + i));
    }
    lineup.ackAll(
        queue, lineup.lease(queue, 3, Duration.ZERO).jobs().stream().map(AckRequest::of).toList());
    List<OutboxEntry> first = outbox.readNew(queue, GROUP, "reader", 10);
    lineup.publish(queue, aJob("second"));
    lineup.ack(leaseOne());
    // Both readers hold the first entry: one read it, the other took it over.
    List<OutboxEntry> claimed = outbox.claimIdle(queue, GROUP, "other", Duration.ZERO, 10);
    assertThat(outbox.length(queue)).isEqualTo(4);

    assertThat(outbox.acknowledge(queue, GROUP, first)).isEqualTo(3);
    assertThat(outbox.acknowledge(queue, GROUP, first)).isZero();

    assertThat(outbox.length(queue)).isEqualTo(1);
    List<OutboxEntry> rest = outbox.readNew(queue, GROUP, "reader", 10);
    assertThat(rest).extracting(OutboxEntry::entryJobs).containsExactly(1);
    assertThat(outbox.acknowledge(queue, GROUP, claimed)).isZero();
    assertThat(outbox.acknowledge(queue, GROUP, rest)).isEqualTo(1);
    assertThat(outbox.length(queue)).isZero();
  }

  @Test
  void aCallThatEndsAThousandJobsWritesThemAllInItsEntry() {
    outbox.enable(queue, 10_000);
    for (int i = 0; i < 1_000; i++) {
      lineup.publish(queue, aJob("payload " + i).id("job-" + i));
    }
    List<LeasedJob> leased = lineup.lease(queue, 1_000, Duration.ZERO).jobs();
    assertThat(leased).hasSize(1_000);

    lineup.ackAll(queue, leased.stream().map(AckRequest::of).toList());

    assertThat(outbox.entryCount(queue)).isEqualTo(1);
    List<OutboxEntry> read = outbox.readNew(queue, GROUP, "reader", 1);
    assertThat(read)
        .extracting(OutboxEntry::id)
        .containsExactlyElementsOf(leased.stream().map(LeasedJob::id).toList());
    assertThat(read)
        .allSatisfy(entry ->
            assertThat(entry.payload())
                .asString(StandardCharsets.UTF_8)
                .isEqualTo("payload " + entry.id().substring("job-".length())));
  }

  @Test
  void theBoundCountsJobsSoACallEndingMoreThanTheRoomLeftAddsWhatFitsAndCountsTheRest() {
    outbox.enable(queue, 3);
    for (int i = 0; i < 5; i++) {
      lineup.publish(queue, aJob("job " + i));
    }
    List<LeasedJob> leased = lineup.lease(queue, 5, Duration.ZERO).jobs();

    lineup.ackAll(queue, leased.stream().map(AckRequest::of).toList());

    assertThat(outbox.length(queue)).isEqualTo(3);
    assertThat(outbox.dropped(queue)).isEqualTo(2);
    List<OutboxEntry> read = outbox.readNew(queue, GROUP, "reader", 10);
    assertThat(read)
        .extracting(OutboxEntry::id)
        .containsExactly(leased.get(0).id(), leased.get(1).id(), leased.get(2).id());

    // Acknowledging frees room for as many jobs as the entry held, given one job of it.
    assertThat(outbox.acknowledge(queue, GROUP, List.of(read.get(0)))).isEqualTo(3);
    lineup.publish(queue, aJob("later").id("later"));
    lineup.ack(leaseOne());

    assertThat(outbox.length(queue)).isEqualTo(1);
    assertThat(outbox.dropped(queue)).isEqualTo(2);
    assertThat(outbox.readNew(queue, GROUP, "reader", 10))
        .extracting(OutboxEntry::id)
        .containsExactly("later");
  }

  @Test
  void anEntryWrittenOneJobPerEntryBeforeAnUpgradeIsStillRead() {
    outbox.enable(queue, 100);
    outbox.readNew(queue, GROUP, "reader", 1); // makes the group
    Map<byte[], byte[]> fields = new java.util.LinkedHashMap<>();
    fields.put(utf8("id"), utf8("old-1"));
    fields.put(utf8("st"), utf8("DEAD"));
    fields.put(utf8("n"), utf8("4,2,2,1000,0,2000,3000"));
    fields.put(utf8("err"), utf8("it broke"));
    fields.put(utf8("pay"), utf8("old payload"));
    raw().xadd(keyOfTheOutbox(), fields);

    List<OutboxEntry> read = outbox.readNew(queue, GROUP, "reader", 10);

    assertThat(read).hasSize(1);
    OutboxEntry old = read.get(0);
    assertThat(old.id()).isEqualTo("old-1");
    assertThat(old.state()).isEqualTo(JobState.DEAD);
    assertThat(old.priority()).isEqualTo(4);
    assertThat(old.createdAt()).isEqualTo(Instant.ofEpochMilli(1000));
    assertThat(old.dueAt()).isNull();
    assertThat(old.finishedAt()).isEqualTo(Instant.ofEpochMilli(3000));
    assertThat(old.lastError()).isEqualTo("it broke");
    assertThat(old.result()).isNull();
    assertThat(old.payload()).asString(StandardCharsets.UTF_8).isEqualTo("old payload");
    assertThat(outbox.acknowledge(queue, GROUP, List.of(old))).isEqualTo(1);
    assertThat(outbox.entryCount(queue)).isZero();
  }

  @Test
  void anEntryOfLooseValuesAsWrittenBeforeTheArrayIsStillRead() {
    // As lib/archive.lua wrote an entry before it packed the values as one array.
    List<OutboxEntry> read =
        readAfterWriting(
            """
            local body = cmsgpack.pack({'old payload', 1000})
            local j = cmsgpack.pack('loose-1', 3, 1, 1500, 2000, '', 'the result', body)
            return redis.call('XADD', KEYS[1], '*', 'n', 1, 'm', 3, 'j', j)
            """);

    assertThat(read).hasSize(1);
    OutboxEntry loose = read.get(0);
    assertThat(loose.id()).isEqualTo("loose-1");
    assertThat(loose.state()).isEqualTo(JobState.DONE);
    assertThat(loose.attempts()).isEqualTo(1);
    assertThat(loose.maxAttempts()).isEqualTo(3);
    assertThat(loose.createdAt()).isEqualTo(Instant.ofEpochMilli(1000));
    assertThat(loose.startedAt()).isEqualTo(Instant.ofEpochMilli(1500));
    assertThat(loose.finishedAt()).isEqualTo(Instant.ofEpochMilli(2000));
    assertThat(loose.payload()).asString(StandardCharsets.UTF_8).isEqualTo("old payload");
    assertThat(loose.result()).asString(StandardCharsets.UTF_8).isEqualTo("the result");
    assertThat(outbox.acknowledge(queue, GROUP, List.of(loose))).isEqualTo(1);
  }

  @Test
  void anEntryWithoutAJobCountCountsTheJobsItHolds() {
    List<OutboxEntry> read =
        readAfterWriting(
            """
            local body = cmsgpack.pack({'a payload', 1000})
            local j = cmsgpack.pack({'one', 3, 1, 1500, 2000, '', '', body,
              'two', 3, 1, 1500, 2000, '', '', body})
            return redis.call('XADD', KEYS[1], '*', 'm', 3, 'j', j)
            """);

    assertThat(read).extracting(OutboxEntry::id).containsExactly("one", "two");
    assertThat(read).extracting(OutboxEntry::entryJobs).containsExactly(2, 2);
    assertThat(outbox.acknowledge(queue, GROUP, List.of(read.get(1)))).isEqualTo(2);
    assertThat(outbox.entryCount(queue)).isZero();
  }

  /**
   * Reads what {@code writer} (a Lua script given the outbox as KEYS[1]) added to an outbox with
   * archiving on, as an engine of another version would have written it.
   */
  private List<OutboxEntry> readAfterWriting(String writer) {
    outbox.enable(queue, 100);
    outbox.readNew(queue, GROUP, "reader", 1); // makes the group
    raw().eval(writer, ScriptOutputType.VALUE, new byte[][] {keyOfTheOutbox()});
    return outbox.readNew(queue, GROUP, "reader", 10);
  }

  private static byte[] utf8(String text) {
    return text.getBytes(StandardCharsets.UTF_8);
  }

  @Test
  void theOldestEntrySaysWhenItWasAdded() {
    outbox.enable(queue, 100);
    Instant before = Instant.now().minusSeconds(1);
    lineup.publish(queue, aJob("a"));
    lineup.ack(leaseOne());

    assertThat(outbox.oldestEntryAt(queue)).get().matches(at -> at.isAfter(before));
  }

  @Test
  void badArgumentsAreRefusedBeforeAnythingIsSent() {
    assertThatThrownBy(() -> outbox.enable(queue, 0)).isInstanceOf(InvalidArgumentException.class);
    assertThatThrownBy(() -> outbox.readNew(queue, GROUP, "", 1))
        .isInstanceOf(InvalidArgumentException.class);
    assertThatThrownBy(() -> outbox.readNew(queue, GROUP, "c", 0))
        .isInstanceOf(InvalidArgumentException.class);
    assertThatThrownBy(() -> outbox.claimIdle(queue, GROUP, "c", Duration.ofMillis(-1), 1))
        .isInstanceOf(InvalidArgumentException.class);
  }

  @Test
  void aLockIsHeldByOneHolderUntilItExpires() {
    String name = "archive-test-" + queue.name();
    assertThat(lineup.tryLock(name, "one", Duration.ofMinutes(1))).isTrue();
    assertThat(lineup.tryLock(name, "two", Duration.ofMinutes(1))).isFalse();
  }

  private byte[] keyOfTheOutbox() {
    return io.lineup.core.internal.store.KeySpace.queueKeys(queue)[
        io.lineup.core.internal.store.KeySpace.OUTBOX_INDEX];
  }
}
