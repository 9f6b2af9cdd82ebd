package io.lineup.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lineup.api.resource.JobActionResult;
import io.lineup.api.resource.JobListPage;
import io.lineup.api.resource.JobState;
import io.lineup.api.resource.LeasedJob;
import io.lineup.api.resource.ListedJob;
import io.lineup.testing.RedisServerExtension;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** A queue's jobs by state and the actions on them through the client, against a real server. */
class JobsClientTest {
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

  static QueueName aQueue(String prefix) {
    return QueueName.of("joblists", RedisServerExtension.uniqueName(prefix).replace(':', '-'));
  }

  static void aDeadJob(QueueName queue, String id, String error) {
    admin.publish(queue, NewJob.ofJson("{}").id(id).maxAttempts(1));
    LeasedJob job = admin.lease(queue, 1, Duration.ZERO).get(0);
    admin.nack(job, error, null);
  }

  @Test
  void theIteratorWalksEveryPageOfAListAndAPageComesWithItsCursor() {
    QueueName queue = aQueue("iter");
    List<String> published = new ArrayList<>();
    for (int i = 0; i < 230; i++) {
      published.add(admin.publish(queue, NewJob.ofJson("{\"n\": " + i + "}")).id());
    }
    List<String> listed = new ArrayList<>();
    for (ListedJob job : admin.jobs(queue).list(JobFilter.state("ready"))) {
      listed.add(job.id());
    }
    assertThat(listed).containsExactlyElementsOf(published);

    JobListPage page = admin.jobs(queue).page(JobFilter.state("ready"), null, 3, true);
    assertThat(page.jobs())
        .extracting(ListedJob::id)
        .containsExactly(published.get(229), published.get(228), published.get(227));
    assertThat(page.jobs().get(0).position()).isEqualTo(229);
    assertThat(page.nextCursor()).isNotNull();
    JobListPage next = admin.jobs(queue).page(JobFilter.state("ready"), page.nextCursor(), 1, true);
    assertThat(next.jobs()).extracting(ListedJob::id).containsExactly(published.get(226));
  }

  @Test
  void deadJobsAreFilteredRespawnedByIdAndByAConfirmedCount() {
    QueueName queue = aQueue("dead");
    aDeadJob(queue, "a-1", "timed out");
    aDeadJob(queue, "a-2", "timed out");
    aDeadJob(queue, "b-1", "declined");
    JobsClient jobs = admin.jobs(queue);
    JobFilter timeouts = JobFilter.state("dead").error("timed out");

    List<String> ids = new ArrayList<>();
    jobs.list(timeouts).forEach(job -> ids.add(job.id()));
    assertThat(ids).containsExactly("a-1", "a-2");

    assertThatThrownBy(() -> jobs.respawnMatching(timeouts, 3))
        .isInstanceOfSatisfying(
            CountMismatchException.class, e -> assertThat(e.count()).isEqualTo(2));
    JobActionResult respawned = jobs.respawnMatching(timeouts, 2);
    assertThat(respawned.done()).isEqualTo(2);
    assertThat(admin.get(queue, "a-1").state()).isEqualTo(JobState.READY);

    JobActionResult byId = jobs.respawn(List.of("b-1", "a-1"));
    assertThat(byId.done()).isEqualTo(1);
    assertThat(byId.skipped())
        .singleElement()
        .satisfies(s -> {
          assertThat(s.id()).isEqualTo("a-1");
          assertThat(s.reason()).isEqualTo("state_ready");
        });
  }

  @Test
  void delayedJobsRunNowAndJobsAreCancelledAndDeleted() {
    QueueName queue = aQueue("act");
    admin.publish(queue, NewJob.ofJson("{}").id("soon").delay(Duration.ofHours(1)));
    admin.publish(queue, NewJob.ofJson("{}").id("other").delay(Duration.ofHours(1)));
    JobsClient jobs = admin.jobs(queue);

    assertThat(jobs.runNow(List.of("soon")).done()).isEqualTo(1);
    assertThat(admin.get(queue, "soon").state()).isEqualTo(JobState.READY);
    assertThat(jobs.cancel(List.of("other")).done()).isEqualTo(1);
    assertThat(jobs.page(JobFilter.state("finished"), null, 10, false).jobs())
        .extracting(ListedJob::id)
        .containsExactly("other");
    assertThat(jobs.delete(List.of("soon", "other")).done()).isEqualTo(2);
    assertThatThrownBy(() -> admin.get(queue, "soon")).isInstanceOf(NotFoundException.class);
  }

  @Test
  void aReadTokenListsButCannotActAndABadCursorIsRefused() {
    QueueName queue = aQueue("scopes");
    admin.publish(queue, NewJob.ofJson("{}").id("j"));
    try (LineupClient reader =
        LineupClient.connect(server.url(), server.tokenFor("joblists", 0, "read"))) {
      assertThat(reader.jobs(queue).page(JobFilter.state("ready"), null, 10, false).jobs())
          .hasSize(1);
      assertThatThrownBy(() -> reader.jobs(queue).cancel(List.of("j")))
          .isInstanceOf(ForbiddenException.class);
    }
    assertThatThrownBy(
            () -> admin.jobs(queue).page(JobFilter.state("ready"), "not-a-cursor", 10, false))
        .isInstanceOfSatisfying(
            InvalidRequestException.class, e -> assertThat(e.field()).isEqualTo("cursor"));
    assertThatThrownBy(() -> JobFilter.state("sleeping"))
        .isInstanceOf(IllegalArgumentException.class);
  }
}
