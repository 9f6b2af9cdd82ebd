package io.lineup.core;

import static io.lineup.core.Fixtures.aFreshQueue;
import static io.lineup.core.Fixtures.aJob;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Named.named;
import static org.junit.jupiter.params.provider.Arguments.arguments;

import io.lineup.consumer.WorkerOptions;
import io.lineup.core.model.Backoff;
import io.lineup.core.model.InvalidArgumentException;
import io.lineup.core.model.LeasedJob;
import io.lineup.core.model.Limits;
import io.lineup.core.model.NewJob;
import io.lineup.core.model.QueueName;
import io.lineup.core.model.QueueSettings;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every input the engine refuses is refused with {@link InvalidArgumentException} naming the field,
 * before anything reaches Redis: the key count and the write counter of every Redis node are the
 * same after the refused call as before it.
 *
 * <p>Runs on both topologies ({@link BadInputOnStandaloneTest}, {@link BadInputOnClusterTest}).
 */
abstract class BadInputTest extends EngineSuite {
  /** A small payload limit, so the over-the-limit case needs no megabyte payload. */
  static final int MAX_PAYLOAD_BYTES = 1024;

  Lineup lineup;
  Scene scene;

  /** What a bad call may use: the engine, a queue with jobs in it, and a job leased from it. */
  record Scene(Lineup lineup, QueueName queue, LeasedJob leased) {}

  /** One call with a bad input. */
  @FunctionalInterface
  interface BadCall {
    void run(Scene scene) throws Exception;
  }

  /**
   * What Redis holds, seen from outside the engine and added up over its nodes: the number of keys
   * ever held ({@code DBSIZE} plus the keys that expired, since a key another suite left on a
   * shared Redis may expire during a test, which is no write), and the number of writes since the
   * last save ({@code rdb_changes_since_last_save}; test servers never save, so any write at all
   * moves it, and an expiry does not).
   */
  record Footprint(long keys, long writes) {}

  @BeforeAll
  void seed() {
    // Background loops off: the write counter must move only for the call under test.
    lineup = anEngine(o -> o.maxPayloadBytes(MAX_PAYLOAD_BYTES).maintenance(false));
    // A queue with waiting, delayed and leased jobs, so that a bad call that slipped through
    // would have something to change.
    QueueName queue = aFreshQueue();
    lineup.publish(queue, aJob("first").id("seed-1"));
    lineup.publish(queue, aJob("second").uniqueKey("order-7", Duration.ofMinutes(5)));
    lineup.publish(queue, aJob("later").delay(Duration.ofHours(1)));
    LeasedJob leased = lineup.lease(queue, 1, Duration.ZERO).jobs().get(0);
    lineup.publish(queue, aJob("third"));
    scene = new Scene(lineup, queue, leased);
  }

  @AfterAll
  void close() {
    lineup.close();
  }

  static Stream<Arguments> refusals() {
    String long65 = "n".repeat(QueueName.MAX_LENGTH + 1);
    return Stream.of(
        // ---- queue names ----
        refused("an empty namespace", "namespace", s -> QueueName.of("", "orders")),
        refused("a 65-character namespace", "namespace", s -> QueueName.of(long65, "orders")),
        refused("a namespace with a space", "namespace", s -> QueueName.of("my shop", "orders")),
        refused("a namespace with a brace", "namespace", s -> QueueName.of("shop{1}", "orders")),
        refused("a namespace with a slash", "namespace", s -> QueueName.of("shop/eu", "orders")),
        refused("an empty queue name", "queue", s -> QueueName.of("shop", "")),
        refused("a 65-character queue name", "queue", s -> QueueName.of("shop", long65)),
        refused("a queue name with a colon", "queue", s -> QueueName.of("shop", "orders:eu")),
        refused("a namespace of two dots", "namespace", s -> QueueName.of("..", "orders")),
        refused("a queue name of one dot", "queue", s -> QueueName.of("shop", ".")),
        refused("a queue name of three dots", "queue", s -> QueueName.of("shop", "...")),
        refused("a queue name with a non-ASCII letter", "queue", s -> QueueName.of("shop", "café")),
        refused("a queue path without a slash", "queue", s -> QueueName.parse("shop-orders")),
        refused("a queue path with two slashes", "queue", s -> QueueName.parse("shop/eu/orders")),
        // ---- job ids ----
        refused("an empty id", "id", s -> publish(s, aJob("x").id(""))),
        refused("a 129-character id", "id", s -> publish(s, aJob("x").id("i".repeat(129)))),
        refused("an id with a space", "id", s -> publish(s, aJob("x").id("order 42"))),
        refused("an id with a brace", "id", s -> publish(s, aJob("x").id("order{42"))),
        refused("an id with a comma", "id", s -> publish(s, aJob("x").id("order,42"))),
        // ---- payload ----
        refused(
            "a payload one byte over the maximum",
            "payload",
            s -> publish(s, NewJob.of(new byte[MAX_PAYLOAD_BYTES + 1]))),
        // ---- due time ----
        refused(
            "a negative delay", "delay", s -> publish(s, aJob("x").delay(Duration.ofMillis(-1)))),
        refused(
            "a delay together with a run-at time",
            "delay",
            s ->
                publish(
                    s,
                    aJob("x").delay(Duration.ofSeconds(1)).runAt(Instant.now().plusSeconds(60)))),
        refused(
            "a delay over ten years",
            "delay",
            s -> publish(s, aJob("x").delay(Duration.ofMillis(Limits.MAX_DELAY_MS + 1)))),
        refused(
            "a delay too long to count in milliseconds",
            "delay",
            s -> publish(s, aJob("x").delay(Duration.ofSeconds(Long.MAX_VALUE)))),
        refused(
            "a run-at time before 1970",
            "runAt",
            s -> publish(s, aJob("x").runAt(Instant.EPOCH.minusMillis(1)))),
        refused(
            "a run-at time too far to count in milliseconds",
            "runAt",
            s -> publish(s, aJob("x").runAt(Instant.MAX))),
        // ---- priority, attempts, time-to-run, TTL ----
        refused("priority 256", "priority", s -> publish(s, aJob("x").priority(256))),
        refused("priority -256", "priority", s -> publish(s, aJob("x").priority(-256))),
        refused("max attempts 0", "maxAttempts", s -> publish(s, aJob("x").maxAttempts(0))),
        refused("max attempts 1001", "maxAttempts", s -> publish(s, aJob("x").maxAttempts(1001))),
        refused(
            "a time-to-run of 0", "timeToRun", s -> publish(s, aJob("x").timeToRun(Duration.ZERO))),
        refused(
            "a time-to-run of 50 ms",
            "timeToRun",
            s -> publish(s, aJob("x").timeToRun(Duration.ofMillis(50)))),
        refused(
            "a time-to-run of 25 h",
            "timeToRun",
            s -> publish(s, aJob("x").timeToRun(Duration.ofHours(25)))),
        refused("a TTL of 0", "ttl", s -> publish(s, aJob("x").ttl(Duration.ZERO))),
        refused("a negative TTL", "ttl", s -> publish(s, aJob("x").ttl(Duration.ofSeconds(-5)))),
        refused(
            "a TTL too long to count in milliseconds",
            "ttl",
            s -> publish(s, aJob("x").ttl(Duration.ofSeconds(Long.MAX_VALUE)))),
        // ---- unique keys ----
        refused(
            "an empty unique key",
            "uniqueKey",
            s -> publish(s, aJob("x").uniqueKey("", Duration.ofMinutes(1)))),
        refused(
            "a unique key of 257 bytes",
            "uniqueKey",
            s -> publish(s, aJob("x").uniqueKey("k".repeat(257), Duration.ofMinutes(1)))),
        refused(
            "a unique key of 129 two-byte characters (258 bytes)",
            "uniqueKey",
            s -> publish(s, aJob("x").uniqueKey("é".repeat(129), Duration.ofMinutes(1)))),
        refused(
            "a unique key with a control character",
            "uniqueKey",
            s -> publish(s, aJob("x").uniqueKey("order\n42", Duration.ofMinutes(1)))),
        refused(
            "a unique key without a window",
            "uniqueWindow",
            s -> publish(s, aJob("x").uniqueKey("order-42", null))),
        refused(
            "a unique window of 0",
            "uniqueWindow",
            s -> publish(s, aJob("x").uniqueKey("order-42", Duration.ZERO))),
        refused(
            "a unique window over 30 days",
            "uniqueWindow",
            s -> publish(s, aJob("x").uniqueKey("order-42", Duration.ofDays(31)))),
        // ---- bulk publish ----
        refused("a bulk of 1001 jobs", "jobs", s -> s.lineup().publishAll(s.queue(), jobs(1001))),
        refused("an empty bulk", "jobs", s -> s.lineup().publishAll(s.queue(), List.of())),
        refused(
            "a bulk with one bad priority among good jobs",
            "priority",
            s -> {
              List<NewJob> batch = new ArrayList<>(jobs(5));
              batch.add(3, aJob("bad").priority(999));
              s.lineup().publishAll(s.queue(), batch);
            }),
        refused(
            "a bulk whose last job's payload is too large",
            "payload",
            s -> {
              List<NewJob> batch = new ArrayList<>(jobs(5));
              batch.add(NewJob.of(new byte[MAX_PAYLOAD_BYTES + 1]));
              s.lineup().publishAll(s.queue(), batch);
            }),
        // ---- leasing ----
        refused("a lease of 0 jobs", "count", s -> s.lineup().lease(s.queue(), 0, Duration.ZERO)),
        refused(
            "a lease of 1001 jobs", "count", s -> s.lineup().lease(s.queue(), 1001, Duration.ZERO)),
        refused(
            "a negative lease wait",
            "wait",
            s -> s.lineup().lease(s.queue(), 1, Duration.ofMillis(-1))),
        refused(
            "a lease wait over 5 minutes",
            "wait",
            s -> s.lineup().lease(s.queue(), 1, Duration.ofMillis(Limits.MAX_WAIT_MS + 1))),
        refused(
            "a lease wait too long to count in milliseconds",
            "wait",
            s -> s.lineup().lease(s.queue(), 1, Duration.ofSeconds(Long.MAX_VALUE))),
        refused(
            "a lease from no queue at all",
            "queue",
            s -> s.lineup().lease(List.of(), 1, Duration.ZERO)),
        // ---- settling ----
        refused(
            "an ack with an empty token",
            "token",
            s -> s.lineup().ack(s.queue(), s.leased().id(), "", null)),
        refused(
            "an ack with an empty id",
            "id",
            s -> s.lineup().ack(s.queue(), "", s.leased().token(), null)),
        refused(
            "an ack with a result over 1 MiB",
            "result",
            s -> s.lineup().ack(s.leased(), new byte[Limits.MAX_RESULT_BYTES + 1])),
        refused(
            "a nack with an empty token",
            "token",
            s -> s.lineup().nack(s.queue(), s.leased().id(), "", "boom", null)),
        refused(
            "a nack with a negative retry delay",
            "retryDelay",
            s ->
                s.lineup()
                    .nack(
                        s.queue(),
                        s.leased().id(),
                        s.leased().token(),
                        "boom",
                        Duration.ofMillis(-1))),
        refused(
            "an extension by 50 ms",
            "timeToRun",
            s ->
                s.lineup()
                    .extend(s.queue(), s.leased().id(), s.leased().token(), Duration.ofMillis(50))),
        refused("a cancel with an empty id", "id", s -> s.lineup().cancel(s.queue(), "")),
        refused(
            "a cancel with a 129-character id",
            "id",
            s -> s.lineup().cancel(s.queue(), "i".repeat(129))),
        // ---- inspection ----
        refused("a get with an empty id", "id", s -> s.lineup().get(s.queue(), "")),
        refused("a peek of 0 jobs", "count", s -> s.lineup().peek(s.queue(), 0, 0)),
        refused("a peek of 1001 jobs", "count", s -> s.lineup().peek(s.queue(), 0, 1001)),
        refused("a peek from a negative offset", "offset", s -> s.lineup().peek(s.queue(), -1, 10)),
        // ---- dead letters ----
        refused(
            "a dead-letter page of 0 jobs", "count", s -> s.lineup().deadLetters(s.queue(), 0, 0)),
        refused(
            "a dead-letter page from a negative offset",
            "offset",
            s -> s.lineup().deadLetters(s.queue(), -1, 10)),
        refused("a respawn of no ids", "ids", s -> s.lineup().respawn(s.queue(), List.of(), null)),
        refused(
            "a respawn with a TTL of 0",
            "ttl",
            s -> s.lineup().respawn(s.queue(), List.of("seed-1"), Duration.ZERO)),
        refused(
            "a respawn of the 0 oldest",
            "count",
            s -> s.lineup().respawnOldest(s.queue(), 0, null)),
        // ---- queue settings ----
        refused(
            "a rate limit of -1",
            "rateLimit",
            s -> configure(s, QueueSettings.builder().rateLimit(-1).build())),
        refused(
            "a rate limit over 100,000/s",
            "rateLimit",
            s -> configure(s, QueueSettings.builder().rateLimit(100_001).build())),
        refused(
            "a concurrency limit of -1",
            "concurrencyLimit",
            s -> configure(s, QueueSettings.builder().concurrencyLimit(-1).build())),
        refused(
            "a queue max attempts of 0",
            "maxAttempts",
            s -> configure(s, QueueSettings.builder().maxAttempts(0).build())),
        refused(
            "a queue time-to-run of 50 ms",
            "timeToRun",
            s -> configure(s, QueueSettings.builder().timeToRun(Duration.ofMillis(50)).build())),
        refused(
            "a negative retention",
            "retention",
            s -> configure(s, QueueSettings.builder().retention(Duration.ofSeconds(-1)).build())),
        refused(
            "a retention max of -1",
            "retentionMax",
            s -> configure(s, QueueSettings.builder().retentionMax(-1).build())),
        refused(
            "a valid setting sent together with a bad one",
            "concurrencyLimit",
            s -> configure(s, QueueSettings.builder().rateLimit(10).concurrencyLimit(-1).build())),
        refused(
            "a backoff jitter of 1.5",
            "backoff.jitter",
            s ->
                configure(
                    s,
                    QueueSettings.builder()
                        .backoff(
                            new Backoff(
                                Backoff.Kind.FIXED,
                                Duration.ofSeconds(1),
                                Duration.ofSeconds(1),
                                1.5))
                        .build())),
        refused(
            "a backoff jitter that is not a number",
            "backoff.jitter",
            s ->
                new Backoff(
                    Backoff.Kind.FIXED, Duration.ofSeconds(1), Duration.ofSeconds(1), Double.NaN)),
        refused(
            "a negative backoff",
            "backoff.initial",
            s ->
                new Backoff(
                    Backoff.Kind.EXPONENTIAL, Duration.ofSeconds(-1), Duration.ofMinutes(1), 0.2)),
        // ---- worker options ----
        refused(
            "a worker concurrency of 0",
            "concurrency",
            s ->
                s.lineup()
                    .worker(s.queue(), job -> null, WorkerOptions.defaults().withConcurrency(0))),
        refused(
            "a worker idle wait of 0",
            "idleWait",
            s ->
                s.lineup()
                    .worker(
                        s.queue(),
                        job -> null,
                        WorkerOptions.defaults().withIdleWait(Duration.ZERO))));
  }

  @ParameterizedTest(name = "{0} is refused naming {1}")
  @MethodSource("refusals")
  void aBadInputIsRefusedNamingTheFieldAndNothingIsWrittenToRedis(
      BadCall call, String expectedField) {
    Footprint before = footprint();

    assertThatThrownBy(() -> call.run(scene))
        .isInstanceOfSatisfying(
            InvalidArgumentException.class,
            e -> {
              assertThat(e.field()).isEqualTo(expectedField);
              assertThat(e.reason()).isNotBlank();
            });

    assertThat(footprint()).isEqualTo(before);
  }

  @Test
  void valuesAtTheDocumentedLimitsAreAcceptedAndWritten() {
    // The other side of every edge above: the largest and smallest allowed values go through,
    // and the footprint check sees their writes (so it is able to fail).
    String longest = "n".repeat(QueueName.MAX_LENGTH);
    QueueName queue = QueueName.of(longest, longest);
    Footprint before = footprint();

    assertThatCode(
            () -> {
              lineup.publish(
                  queue,
                  NewJob.of(new byte[MAX_PAYLOAD_BYTES])
                      .id("A-z_0.9:" + "i".repeat(Limits.MAX_ID_LENGTH - 8))
                      .priority(Limits.MAX_PRIORITY)
                      .maxAttempts(Limits.MAX_ATTEMPTS)
                      .timeToRun(Duration.ofMillis(Limits.MIN_TTR_MS))
                      .ttl(Duration.ofMillis(Limits.MAX_TTL_MS))
                      .uniqueKey(
                          "é".repeat(Limits.MAX_UNIQUE_KEY_BYTES / 2),
                          Duration.ofMillis(Limits.MAX_UNIQUE_WINDOW_MS)));
              lineup.publish(
                  queue,
                  aJob("low")
                      .priority(Limits.MIN_PRIORITY)
                      .maxAttempts(1)
                      .timeToRun(Duration.ofMillis(Limits.MAX_TTR_MS))
                      .ttl(Duration.ofMillis(1))
                      .delay(Duration.ofMillis(Limits.MAX_DELAY_MS)));
              lineup.publishAll(queue, jobs(Limits.MAX_BATCH));
              lineup.lease(queue, Limits.MAX_BATCH, Duration.ZERO);
              lineup.peek(queue, 0, Limits.MAX_BATCH);
              lineup.deadLetters(queue, 0, Limits.MAX_BATCH);
              lineup.configure(
                  queue,
                  QueueSettings.builder()
                      .rateLimit(QueueSettings.MAX_RATE_LIMIT)
                      .concurrencyLimit(0)
                      .maxAttempts(Limits.MAX_ATTEMPTS)
                      .timeToRun(Duration.ofMillis(Limits.MAX_TTR_MS))
                      .backoff(
                          new Backoff(Backoff.Kind.FIXED, Duration.ZERO, Duration.ofDays(1), 1.0))
                      .build());
            })
        .doesNotThrowAnyException();

    Footprint after = footprint();
    assertThat(after.keys()).isGreaterThan(before.keys());
    assertThat(after.writes()).isGreaterThan(before.writes());
  }

  // ---- helpers ----

  private static Arguments refused(String input, String field, BadCall call) {
    return arguments(named(input, call), field);
  }

  private static void publish(Scene s, NewJob job) {
    s.lineup().publish(s.queue(), job);
  }

  private static void configure(Scene s, QueueSettings change) {
    s.lineup().configure(s.queue(), change);
  }

  private static List<NewJob> jobs(int count) {
    List<NewJob> jobs = new ArrayList<>(count);
    for (int i = 0; i < count; i++) {
      jobs.add(NewJob.of(("job " + i).getBytes(StandardCharsets.UTF_8)));
    }
    return jobs;
  }

  /**
   * Keys ever made on the nodes (those there now and those expired) and writes. A node's keys and
   * expirations are read in one INFO answer, a snapshot: read apart, a key that expired between the
   * two reads was counted in neither.
   */
  private Footprint footprint() {
    long keys = 0;
    for (String info : infoOfEachNode("stats keyspace")) {
      for (String line : info.lines().toList()) {
        if (line.startsWith("expired_keys:")) {
          keys += Long.parseLong(line.substring("expired_keys:".length()).trim());
        } else if (line.startsWith("db0:keys=")) {
          // db0:keys=<n>,expires=<n>,avg_ttl=<ms>; no db0 line when the node holds no key.
          keys += Long.parseLong(line.substring("db0:keys=".length(), line.indexOf(',')));
        }
      }
    }
    return new Footprint(keys, infoSum("persistence", "rdb_changes_since_last_save"));
  }
}
