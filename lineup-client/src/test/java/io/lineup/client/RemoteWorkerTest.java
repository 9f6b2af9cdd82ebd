package io.lineup.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.lineup.api.resource.Job;
import io.lineup.api.resource.JobState;
import io.lineup.api.resource.LeasedJob;
import io.lineup.consumer.JobHandler;
import io.lineup.consumer.RetryLaterException;
import io.lineup.consumer.WorkerOptions;
import io.lineup.testing.RedisServerExtension;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The remote worker: concurrency, acks and nacks, lease extension, graceful shutdown. */
class RemoteWorkerTest {
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
    return QueueName.of("worker", RedisServerExtension.uniqueName(prefix));
  }

  @Test
  void everyJobIsHandledOnceAndAckedWithItsResultUpToConcurrencyAtATime() {
    QueueName q = queue("all");
    List<NewJob> jobs = new ArrayList<>();
    for (int i = 0; i < 40; i++) {
      jobs.add(NewJob.ofJson(Integer.toString(i)).id("j" + i));
    }
    client.publishAll(q, jobs);
    AtomicInteger now = new AtomicInteger();
    AtomicInteger most = new AtomicInteger();
    Set<String> seen = ConcurrentHashMap.newKeySet();
    JobHandler<LeasedJob> handler =
        job -> {
          int running = now.incrementAndGet();
          most.accumulateAndGet(running, Math::max);
          Thread.sleep(30);
          seen.add(job.id());
          now.decrementAndGet();
          return ("{\"doubled\":" + Integer.parseInt(job.payloadText()) * 2 + "}")
              .getBytes(StandardCharsets.UTF_8);
        };
    try (RemoteWorker worker =
        client.worker(q, handler, WorkerOptions.defaults().withConcurrency(4)).start()) {
      await().atMost(Duration.ofSeconds(20)).until(() -> worker.handled() == 40);
      assertThat(worker.failed()).isZero();
    }
    assertThat(seen).hasSize(40);
    assertThat(most.get()).isBetween(2, 4);
    await().atMost(Duration.ofSeconds(5)).until(() -> client.stats(q).counter("acked") == 40);
    assertThat(client.get(q, "j7").resultText()).isEqualTo("{\"doubled\":14}");
  }

  @Test
  void aHandlerThatThrowsNacksItsJobAndRetryLaterSetsTheDelay() throws Exception {
    QueueName q = queue("fail");
    client.publish(q, NewJob.ofJson("1").id("boom").maxAttempts(5));
    client.publish(q, NewJob.ofJson("2").id("later").maxAttempts(5));
    JobHandler<LeasedJob> handler =
        job -> {
          if (job.id().equals("boom")) {
            throw new IllegalStateException("boom");
          }
          throw new RetryLaterException("upstream busy", Duration.ofHours(1));
        };
    try (RemoteWorker worker =
        client.worker(q, handler, WorkerOptions.defaults().withConcurrency(2)).start()) {
      await().atMost(Duration.ofSeconds(10)).until(() -> worker.failed() >= 2);
    }
    await()
        .atMost(Duration.ofSeconds(5))
        .untilAsserted(() -> {
          Job later = client.get(q, "later");
          assertThat(later.state()).isEqualTo(JobState.DELAYED);
          assertThat(later.lastError()).contains("upstream busy");
          assertThat(later.dueAt() - later.createdAt())
              .isGreaterThan(Duration.ofMinutes(59).toMillis());
          assertThat(client.get(q, "boom").lastError()).contains("boom");
        });
  }

  @Test
  void aHandlerLongerThanItsTimeToRunKeepsItsLeaseAndIsDeliveredOnce() {
    QueueName q = queue("extend");
    client.publish(q, NewJob.ofJson("1").id("slow").timeToRun(Duration.ofMillis(600)));
    AtomicInteger deliveries = new AtomicInteger();
    JobHandler<LeasedJob> handler =
        job -> {
          deliveries.incrementAndGet();
          Thread.sleep(2000);
          return null;
        };
    try (RemoteWorker worker =
        client.worker(q, handler, WorkerOptions.defaults().withConcurrency(2)).start()) {
      await().atMost(Duration.ofSeconds(10)).until(() -> worker.handled() == 1);
    }
    Job done = client.get(q, "slow");
    assertThat(done.state()).isEqualTo(JobState.DONE);
    assertThat(done.attempts()).as("never delivered again").isEqualTo(1);
    assertThat(deliveries.get()).isEqualTo(1);
  }

  @Test
  void aCancelledJobInterruptsItsHandler() throws Exception {
    QueueName q = queue("cancel");
    client.publish(q, NewJob.ofJson("1").id("c").timeToRun(Duration.ofMillis(400)));
    CountDownLatch started = new CountDownLatch(1);
    CountDownLatch interrupted = new CountDownLatch(1);
    JobHandler<LeasedJob> handler =
        job -> {
          started.countDown();
          try {
            Thread.sleep(30_000);
          } catch (InterruptedException e) {
            interrupted.countDown();
            throw e;
          }
          return null;
        };
    try (RemoteWorker worker = client.worker(q, handler, WorkerOptions.defaults()).start()) {
      assertThat(started.await(10, TimeUnit.SECONDS)).isTrue();
      client.cancel(q, "c");
      assertThat(interrupted.await(10, TimeUnit.SECONDS)).isTrue();
    }
    assertThat(client.get(q, "c").state()).isEqualTo(JobState.CANCELLED);
  }

  @Test
  void closeLetsRunningHandlersFinishWithinTheGraceThenGivesTheRestBackForAnImmediateRetry()
      throws Exception {
    QueueName q = queue("close");
    client.publish(q, NewJob.ofJson("1").id("quick"));
    client.publish(q, NewJob.ofJson("2").id("stuck"));
    CountDownLatch bothStarted = new CountDownLatch(2);
    JobHandler<LeasedJob> handler =
        job -> {
          bothStarted.countDown();
          if (job.id().equals("quick")) {
            Thread.sleep(200);
            return null;
          }
          Thread.sleep(60_000);
          return null;
        };
    RemoteWorker worker =
        client
            .worker(
                q,
                handler,
                WorkerOptions.defaults()
                    .withConcurrency(2)
                    .withShutdownGrace(Duration.ofMillis(700)))
            .start();
    assertThat(bothStarted.await(10, TimeUnit.SECONDS)).isTrue();
    long start = System.nanoTime();
    worker.close();
    // The stuck handler never returns: a close that waited for it would never end. A bound far
    // above the 700 ms grace, so that a busy machine's delays do not count (issue 49).
    assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(30));
    assertThat(client.get(q, "quick").state()).isEqualTo(JobState.DONE);
    Job stuck = client.get(q, "stuck");
    assertThat(stuck.state()).isEqualTo(JobState.READY);
    assertThat(stuck.lastError()).contains("worker closed");
    assertThat(worker.inFlight()).isZero();
  }

  @Test
  void closingAnIdleWorkerEndsItsLongPollAtOnceAndTakesNoJob() {
    QueueName q = queue("idle");
    RemoteWorker worker =
        client
            .worker(q, job -> null, WorkerOptions.defaults().withIdleWait(Duration.ofSeconds(60)))
            .start();
    await().pollDelay(Duration.ofMillis(300)).until(() -> true);
    long start = System.nanoTime();
    worker.close();
    // Left to itself the long poll would last its 60 s idle wait; a busy machine's delays are
    // far below the bound (issue 49).
    assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(20));
    client.publish(q, NewJob.ofJson("1").id("after"));
    assertThat(client.lease(q, 1, Duration.ofSeconds(5)))
        .as("the closed worker's wait took nothing")
        .extracting(LeasedJob::id)
        .containsExactly("after");
  }
}
