package io.lineup.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.lineup.api.resource.LeasedJob;
import io.lineup.api.resource.Schedule;
import io.lineup.testing.RedisServerExtension;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** Recurring schedules through the client, against a real server on a real Redis. */
class SchedulesClientTest {
  @RegisterExtension static RedisServerExtension redis = RedisServerExtension.withDefaults();

  static TestServer server;
  static LineupClient admin;

  @BeforeAll
  static void start() {
    server = TestServer.start(redis.uri());
    admin = server.adminClient();
  }

  @AfterAll
  static void stop() {
    admin.close();
    server.close();
  }

  static QueueName queue(String prefix) {
    return QueueName.of("schedules", RedisServerExtension.uniqueName(prefix).replace(':', '-'));
  }

  @Test
  void aScheduleIsUpsertedReadListedPausedResumedAndDeleted() {
    QueueName queue = queue("crud");
    Schedule created =
        admin
            .schedules()
            .upsert(
                queue,
                "nightly",
                ScheduleSettings.cron("0 0 2 * * *", ZoneId.of("Europe/Paris"))
                    .payloadJson("{\"report\": \"sales\"}")
                    .priority(2)
                    .ttl(Duration.ofHours(1))
                    .maxAttempts(3)
                    .timeToRun(Duration.ofMinutes(5))
                    .startAt(Instant.parse("2030-06-01T00:00:00Z"))
                    .maxRuns(30)
                    .jitter(Duration.ofSeconds(2))
                    .missed(ScheduleSettings.Missed.CATCH_UP)
                    .catchUpMax(9)
                    .historySize(50));

    assertThat(created.name()).isEqualTo("nightly");
    assertThat(created.queue()).isEqualTo(queue.name());
    assertThat(created.cron()).isEqualTo("0 0 2 * * *");
    assertThat(created.zone()).isEqualTo("Europe/Paris");
    assertThat(created.job().payload().json()).isEqualTo("{\"report\":\"sales\"}");
    assertThat(created.job().priority()).isEqualTo(2);
    assertThat(created.job().ttlMs()).isEqualTo(3_600_000L);
    assertThat(created.job().maxAttempts()).isEqualTo(3);
    assertThat(created.job().ttrMs()).isEqualTo(300_000L);
    assertThat(created.startAt()).isEqualTo(Instant.parse("2030-06-01T00:00:00Z").toEpochMilli());
    assertThat(created.maxRuns()).isEqualTo(30L);
    assertThat(created.jitterMs()).isEqualTo(2000);
    assertThat(created.missed()).isEqualTo("catch_up");
    assertThat(created.catchUpMax()).isEqualTo(9);
    assertThat(created.historySize()).isEqualTo(50);
    assertThat(created.state()).isEqualTo("active");
    // 02:00 in Paris on 1 June (summer time, UTC+2) is 00:00 UTC.
    assertThat(created.nextTickAt())
        .isEqualTo(Instant.parse("2030-06-01T00:00:00Z").toEpochMilli());

    assertThat(admin.schedules().get(queue, "nightly")).isEqualTo(created);
    assertThat(admin.schedules().list(queue)).extracting(Schedule::name).containsExactly("nightly");
    List<Instant> next = admin.schedules().next(queue, "nightly", 3);
    assertThat(next)
        .containsExactly(
            Instant.parse("2030-06-01T00:00:00Z"),
            Instant.parse("2030-06-02T00:00:00Z"),
            Instant.parse("2030-06-03T00:00:00Z"));

    Schedule paused = admin.schedules().pause(queue, "nightly");
    assertThat(paused.state()).isEqualTo("paused");
    assertThat(admin.schedules().next(queue, "nightly", 3)).isEmpty();
    assertThat(admin.schedules().resume(queue, "nightly").state()).isEqualTo("active");

    admin.schedules().delete(queue, "nightly");
    assertThatThrownBy(() -> admin.schedules().get(queue, "nightly"))
        .isInstanceOfSatisfying(
            NotFoundException.class, e -> assertThat(e.code()).isEqualTo("schedule_not_found"));
    assertThat(admin.schedules().list(queue)).isEmpty();
  }

  @Test
  void anIntervalSchedulesJobsReachItsQueue() {
    QueueName queue = queue("interval");
    admin
        .schedules()
        .upsert(queue, "often", ScheduleSettings.every(Duration.ofMillis(100)).payloadText("ping"));
    await()
        .atMost(Duration.ofSeconds(30))
        .until(() -> admin.schedules().get(queue, "often").runs() >= 2);
    admin.schedules().pause(queue, "often");
    List<LeasedJob> jobs = admin.lease(queue, 10, Duration.ZERO);
    assertThat(jobs).isNotEmpty();
    assertThat(jobs).allSatisfy(job -> assertThat(job.id()).startsWith("sched:often:"));
    assertThat(jobs.get(0).payloadText()).isEqualTo("ping");
    Schedule read = admin.schedules().get(queue, "often");
    assertThat(read.job().payloadBytes()).isEqualTo("ping".getBytes());
    assertThat(read.history()).isNotEmpty();
    assertThat(read.history().get(0).outcome()).isEqualTo("published");
  }

  @Test
  void aBadCronExpressionIsRefusedNamingTheCronField() {
    assertThatThrownBy(() ->
            admin
                .schedules()
                .upsert(
                    queue("bad"),
                    "bad",
                    ScheduleSettings.cron("0 0 25 * * *", null).payloadJson("1")))
        .isInstanceOfSatisfying(
            InvalidRequestException.class,
            e -> {
              assertThat(e.field()).isEqualTo("cron");
              assertThat(e.getMessage()).contains("hours");
            });
    assertThatThrownBy(() ->
            admin
                .schedules()
                .upsert(
                    queue("bad"),
                    "bad",
                    ScheduleSettings.every(Duration.ofSeconds(1)).task(NewTask.post("/x"))))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> admin.schedules().next(queue("bad"), "bad", 101))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void anEndpointsScheduleTakesATask() {
    EndpointName endpoint =
        EndpointName.of("schedules", RedisServerExtension.uniqueName("ep").replace(':', '-'));
    admin.dispatch().putEndpoint(endpoint, EndpointSettings.of("http://127.0.0.1:9"));
    Schedule created =
        admin
            .schedules()
            .upsert(
                endpoint,
                "sync",
                ScheduleSettings.every(Duration.ofHours(1))
                    .task(NewTask.post("/sync").jsonBody("{\"full\":true}").header("X-A", "b"))
                    .paused(true));
    assertThat(created.endpoint()).isEqualTo(endpoint.name());
    assertThat(created.task().method()).isEqualTo("POST");
    assertThat(created.task().path()).isEqualTo("/sync");
    assertThat(created.task().headers()).containsEntry("X-A", "b");
    assertThat(created.task().body().json()).isEqualTo("{\"full\":true}");
    assertThat(created.state()).isEqualTo("paused");
    assertThat(admin.schedules().list(endpoint)).hasSize(1);
    admin.schedules().delete(endpoint, "sync");
    assertThat(admin.schedules().list(endpoint)).isEmpty();
  }
}
