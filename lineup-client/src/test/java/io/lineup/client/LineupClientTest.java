package io.lineup.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lineup.api.resource.DeadPage;
import io.lineup.api.resource.Job;
import io.lineup.api.resource.JobState;
import io.lineup.api.resource.LeasedJob;
import io.lineup.api.resource.PublishResult;
import io.lineup.api.resource.QueueSettings;
import io.lineup.api.resource.QueueStats;
import io.lineup.testing.RedisServerExtension;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The client against a real server on a real Redis: every route, typed results. */
class LineupClientTest {
  @RegisterExtension static RedisServerExtension redis = RedisServerExtension.withDefaults();

  static TestServer server;
  static LineupClient client;

  @BeforeAll
  static void start() {
    server = TestServer.start(redis.uri());
    client = server.adminClient();
  }

  @AfterAll
  static void stop() {
    client.close();
    server.close();
  }

  static QueueName queue(String prefix) {
    return QueueName.of("client", RedisServerExtension.uniqueName(prefix));
  }

  @Test
  void aJobWhoseStartByHasPassedIsRefusedWithTheEarliestStart() {
    QueueName q = queue("deadline");
    {
      assertThatThrownBy(() ->
              client.publish(q, NewJob.ofJson("1").startBy(java.time.Instant.ofEpochMilli(1000))))
          .isInstanceOfSatisfying(
              DeadlineUnreachableException.class,
              e -> {
                assertThat(e.field()).isEqualTo("start_by");
                assertThat(e.earliestStartAt()).isNotNull();
              });
      assertThat(
              client
                  .publish(
                      q,
                      NewJob.ofJson("2")
                          .startBy(java.time.Instant.now().plus(Duration.ofMinutes(5))))
                  .created())
          .isTrue();
    }
  }

  @Test
  void aPublishedJobIsLeasedAckedAndReadBackWithItsResult() {
    QueueName q = queue("flow");
    PublishResult published =
        client.publish(q, NewJob.ofJson("{\"order\": 42}").id("order-42").priority(3));
    assertThat(published.id()).isEqualTo("order-42");
    assertThat(published.created()).isTrue();
    assertThat(published.state()).isEqualTo(JobState.READY);
    assertThat(published.position()).isZero();

    List<LeasedJob> leased = client.lease(q, 10, Duration.ofSeconds(5));
    assertThat(leased).hasSize(1);
    LeasedJob job = leased.get(0);
    assertThat(job.queue()).isEqualTo(q.toString());
    assertThat(job.payloadText()).isEqualTo("{\"order\":42}");
    assertThat(job.attempt()).isEqualTo(1);
    assertThat(job.priority()).isEqualTo(3);
    assertThat(job.leaseDeadlineAt()).isGreaterThan(job.createdAt());

    client.ack(job, "{\"closed\": true}");
    Job done = client.get(q, "order-42");
    assertThat(done.state()).isEqualTo(JobState.DONE);
    assertThat(done.resultText()).isEqualTo("{\"closed\":true}");
    assertThat(done.attempts()).isEqualTo(1);
    assertThat(done.finishedAt()).isNotNull();
  }

  @Test
  void bytesThatAreNotJsonComeBackExactly() {
    QueueName q = queue("bytes");
    byte[] raw = {0, 1, 2, (byte) 0xff, 'x'};
    client.publish(q, NewJob.of(raw));
    LeasedJob job = client.lease(q, 1, Duration.ofSeconds(5)).get(0);
    assertThat(job.payloadBytes()).containsExactly(raw);
    assertThat(client.get(q, job.id()).payloadBytes()).containsExactly(raw);
  }

  @Test
  void aBulkPublishAnswersInOrderAndADelayedJobWaitsWithNoPosition() {
    QueueName q = queue("bulk");
    List<PublishResult> results =
        client.publishAll(
            q,
            List.of(
                NewJob.ofJson("1"),
                NewJob.ofJson("2").priority(10),
                NewJob.ofJson("3").delay(Duration.ofMinutes(5))));
    assertThat(results)
        .extracting(PublishResult::state)
        .containsExactly(JobState.READY, JobState.READY, JobState.DELAYED);
    assertThat(results.get(2).position()).isEqualTo(-1);
    assertThat(results.get(2).dueAt()).isNotNull();
    assertThat(client.get(q, results.get(0).id()).position())
        .as("behind the priority 10 job")
        .isEqualTo(1);
    assertThat(client.lease(q, 1, Duration.ZERO).get(0).payloadText()).isEqualTo("2");
  }

  @Test
  void aLeaseOfAnEmptyQueueReturnsNothingAfterItsWait() {
    QueueName q = queue("empty");
    long start = System.nanoTime();
    assertThat(client.lease(q, 1, Duration.ofMillis(300))).isEmpty();
    assertThat(Duration.ofNanos(System.nanoTime() - start))
        .isGreaterThanOrEqualTo(Duration.ofMillis(250));
  }

  @Test
  void aNackRetriesThenTheLastAttemptGoesToDeadLettersWhichCanBeRespawnedAndPurged() {
    QueueName q = queue("dead");
    client.publish(q, NewJob.ofJson("\"x\"").id("j1").maxAttempts(2));
    LeasedJob first = client.lease(q, 1, Duration.ofSeconds(5)).get(0);
    NackResult retry = client.nack(first, "boom", Duration.ZERO);
    assertThat(retry.state()).isIn(JobState.READY, JobState.DELAYED);
    LeasedJob second = client.lease(q, 1, Duration.ofSeconds(5)).get(0);
    assertThat(second.attempt()).isEqualTo(2);
    assertThat(second.lastAttempt()).isTrue();
    assertThat(client.nack(second, "boom again", null).state()).isEqualTo(JobState.DEAD);

    DeadPage page = client.deadLetters(q, 0, 10);
    assertThat(page.total()).isEqualTo(1);
    assertThat(page.jobs().get(0).lastError()).isEqualTo("boom again");
    assertThat(client.respawn(q, List.of("j1"))).isEqualTo(1);
    assertThat(client.get(q, "j1").state()).isEqualTo(JobState.READY);

    LeasedJob again = client.lease(q, 1, Duration.ofSeconds(5)).get(0);
    client.nack(again, "x", null);
    LeasedJob last = client.lease(q, 1, Duration.ofSeconds(5)).get(0);
    client.nack(last, "x", null);
    assertThat(client.stats(q).counts().dead()).isEqualTo(1);
    assertThat(client.purgeDead(q)).isEqualTo(1);
    assertThat(client.deadLetters(q, 0, 10).total()).isZero();
  }

  @Test
  void extendMovesTheDeadlineAndAStaleTokenIsALostLeaseWithItsReason() {
    QueueName q = queue("extend");
    client.publish(q, NewJob.ofJson("1").id("e1").timeToRun(Duration.ofSeconds(2)));
    LeasedJob job = client.lease(q, 1, Duration.ofSeconds(5)).get(0);
    assertThat(client.extend(job, Duration.ofMinutes(10)).toEpochMilli())
        .isGreaterThan(job.leaseDeadlineAt());
    client.ack(job, null);
    assertThatThrownBy(() -> client.nack(job, "late", null))
        .isInstanceOfSatisfying(
            LeaseLostException.class,
            e -> {
              assertThat(e.reason()).isEqualTo("acked");
              assertThat(e.status()).isEqualTo(409);
              assertThat(e.requestId()).isNotBlank();
            });
  }

  @Test
  void cancelAnswersThePreviousStateAndAFinishedJobCannotBeCancelledAgain() {
    QueueName q = queue("cancel");
    client.publish(q, NewJob.ofJson("1").id("c1").delay(Duration.ofHours(1)));
    CancelResult cancelled = client.cancel(q, "c1");
    assertThat(cancelled.previousState()).isEqualTo(JobState.DELAYED);
    assertThat(cancelled.state()).isEqualTo(JobState.CANCELLED);
    assertThatThrownBy(() -> client.cancel(q, "c1"))
        .isInstanceOfSatisfying(
            JobFinishedException.class, e -> assertThat(e.state()).isEqualTo(JobState.CANCELLED));
  }

  @Test
  void queuesAreListedReadConfiguredPausedAndResumed() {
    QueueName q = queue("settings");
    client.publish(q, NewJob.ofJson("1"));
    assertThat(client.queues()).contains(q);
    QueueStats changed =
        client.configure(
            q,
            SettingsChange.create()
                .rateLimit(300)
                .maxAttempts(5)
                .backoffInitial(Duration.ofSeconds(2))
                .retention(Duration.ofMinutes(10)));
    assertThat(changed.settings().rateLimit()).isEqualTo(300L);
    assertThat(changed.settings().maxAttempts()).isEqualTo(5L);
    assertThat(changed.settings().backoff().initialMs()).isEqualTo(2_000L);
    assertThat(changed.settings().backoff().kind()).as("kept").isEqualTo("exponential");
    assertThat(changed.counts().ready()).isEqualTo(1);
    assertThat(changed.counter("published")).isEqualTo(1);

    assertThat(client.pause(q).settings().paused()).isTrue();
    assertThat(client.lease(q, 1, Duration.ZERO)).as("paused").isEmpty();
    assertThat(client.resume(q).settings().paused()).isFalse();
    assertThat(client.lease(q, 1, Duration.ZERO)).hasSize(1);
  }

  @Test
  void everyQueueSettingIsChangedAndReadBack() {
    QueueName q = queue("all-settings");
    client.publish(q, NewJob.ofJson("1"));
    QueueSettings settings =
        client
            .configure(
                q,
                SettingsChange.create()
                    .rateLimit(40)
                    .ratePeriod(Duration.ofSeconds(2))
                    .rateBurst(4)
                    .concurrencyLimit(7)
                    .timeToRun(Duration.ofSeconds(45))
                    .backoffKind("fixed")
                    .backoffMax(Duration.ofMinutes(1))
                    .backoffJitter(0.5)
                    .retentionMax(99)
                    .expectedServiceTime(Duration.ofMillis(250))
                    .durableReplicas(0))
            .settings();
    assertThat(settings.rateLimit()).isEqualTo(40L);
    assertThat(settings.ratePeriodMs()).isEqualTo(2_000L);
    assertThat(settings.rateBurst()).isEqualTo(4L);
    assertThat(settings.concurrencyLimit()).isEqualTo(7L);
    assertThat(settings.ttrMs()).isEqualTo(45_000L);
    assertThat(settings.backoff().kind()).isEqualTo("fixed");
    assertThat(settings.backoff().maxMs()).isEqualTo(60_000L);
    assertThat(settings.backoff().jitter()).isEqualTo(0.5);
    assertThat(settings.retentionMax()).isEqualTo(99L);
    assertThat(settings.expectedServiceMs()).isEqualTo(250L);
    assertThat(settings.durableReplicas()).isZero();
    assertThat(settings.retentionMs()).as("kept its default").isEqualTo(3_600_000L);
  }

  @Test
  void namespacesAndTokensAreManagedAndARevokedTokenIsRefused() {
    String ns = RedisServerExtension.uniqueName("ns");
    Namespace created = client.admin().createNamespace(ns);
    assertThat(created.name()).isEqualTo(ns);
    assertThat(client.admin().namespaces()).extracting(Namespace::name).contains(ns);
    assertThatThrownBy(() -> client.admin().createNamespace(ns))
        .isInstanceOf(AlreadyExistsException.class);

    TokenInfo issued = client.admin().createToken(ns, List.of("publish", "consume"), 5, "shop");
    assertThat(issued.token()).startsWith("lu_" + issued.id() + ".");
    assertThat(client.admin().tokens(ns))
        .singleElement()
        .satisfies(t -> {
          assertThat(t.id()).isEqualTo(issued.id());
          assertThat(t.token()).as("secret not listed").isNull();
          assertThat(t.scopes()).containsExactly("publish", "consume");
          assertThat(t.maxPriority()).isEqualTo(5);
        });

    try (LineupClient scoped = LineupClient.connect(server.url(), issued.token())) {
      QueueName q = QueueName.of(ns, "work");
      assertThat(scoped.publish(q, NewJob.ofJson("1").priority(5)).created()).isTrue();
      assertThatThrownBy(() -> scoped.publish(q, NewJob.ofJson("1").priority(6)))
          .isInstanceOfSatisfying(
              ForbiddenException.class,
              e -> assertThat(e.code()).isEqualTo("priority_not_allowed"));
      assertThatThrownBy(() -> scoped.publish(QueueName.of("other", "q"), NewJob.ofJson("1")))
          .isInstanceOf(ForbiddenException.class);
      assertThatThrownBy(() -> scoped.admin().namespaces()).isInstanceOf(ForbiddenException.class);
      client.admin().revokeToken(issued.id());
      assertThatThrownBy(() -> scoped.publish(q, NewJob.ofJson("1")))
          .isInstanceOf(UnauthorizedException.class);
    }
    client.admin().deleteNamespace(ns);
    assertThatThrownBy(() -> client.admin().deleteNamespace(ns))
        .isInstanceOf(NotFoundException.class);
  }

  @Test
  void errorAnswersBecomeTypedExceptionsThatNameTheField() {
    QueueName q = queue("errors");
    assertThatThrownBy(() -> client.get(q, "nope"))
        .isInstanceOfSatisfying(
            NotFoundException.class, e -> assertThat(e.code()).isEqualTo("not_found"));
    assertThatThrownBy(() -> client.publish(q, NewJob.ofJson("1").priority(999)))
        .isInstanceOfSatisfying(
            InvalidRequestException.class,
            e -> {
              assertThat(e.status()).isEqualTo(400);
              assertThat(e.code()).isEqualTo("invalid_field");
              assertThat(e.field()).isEqualTo("priority");
            });
    assertThatThrownBy(() -> client.configure(q, SettingsChange.create().backoffJitter(2)))
        .isInstanceOfSatisfying(
            InvalidRequestException.class, e -> assertThat(e.field()).isEqualTo("backoff.jitter"));
    try (LineupClient stranger = LineupClient.connect(server.url(), "not-a-token")) {
      assertThatThrownBy(stranger::queues)
          .isInstanceOfSatisfying(
              UnauthorizedException.class, e -> assertThat(e.status()).isEqualTo(401));
      assertThat(stranger.ready()).as("needs no token").isTrue();
    }
    assertThatThrownBy(() -> NewJob.ofJson("{nope")).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> QueueName.parse("no-slash"))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void aRateLimitedLeaseSaysWhenToRetry() {
    QueueName q = queue("limited");
    client.configure(q, SettingsChange.create().rateLimit(1));
    client.publishAll(q, List.of(NewJob.ofJson("1"), NewJob.ofJson("2")));
    assertThat(client.lease(q, 1, Duration.ZERO)).hasSize(1);
    assertThatThrownBy(() -> client.lease(q, 1, Duration.ZERO))
        .isInstanceOfSatisfying(
            LeaseRefusedException.class,
            e -> {
              assertThat(e.code()).isEqualTo("rate_limited");
              assertThat(e.retryAfter()).isPositive().isLessThanOrEqualTo(Duration.ofSeconds(1));
            });
  }

  @Test
  void theMetricsTextIsRead() {
    assertThat(client.metrics()).contains("lineup_lease_waiters");
  }
}
