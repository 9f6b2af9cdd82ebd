package io.lineup.junit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lineup.api.resource.JobState;
import io.lineup.client.ForbiddenException;
import io.lineup.client.LineupClient;
import io.lineup.client.NewJob;
import io.lineup.client.PayloadTooLargeException;
import io.lineup.client.QueueName;
import io.lineup.redis.RedisProcess;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ParameterResolutionException;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * What the extension gives example test classes and how their failures read. Each example is run by
 * a test here through JUnit's test kit, so a failure it must report is checked, not suffered.
 */
class LineupExtensionTest {
  /** How long the examples' idle waits last when their queue must stay busy. */
  private static final Duration SHORT_WAIT = Duration.ofMillis(200);

  @Test
  void awaitIdleFailsWithTheQueuesCountsWhenAJobStaysReady() {
    Throwable failure = Run.failureOfItsTest(LeavesAJobReady.class);

    assertThat(failure)
        .isInstanceOf(AssertionError.class)
        .hasMessage(
            "Queue test/stuck is not idle after 200 ms: ready=1, delayed=0, leased=0"
                + " (dead=0, finished=0)");
  }

  @Test
  void awaitIdleCountsALeasedJobAsBusy() {
    Throwable failure = Run.failureOfItsTest(LeavesAJobLeased.class);

    assertThat(failure).isInstanceOf(AssertionError.class).hasMessageContaining("leased=1");
  }

  @Test
  void assertNoDeadLettersFailsListingEachDeadJobWithItsError() {
    Throwable failure = Run.failureOfItsTest(MakesADeadLetter.class);

    assertThat(failure)
        .isInstanceOf(AssertionError.class)
        .hasMessage(
            "Queue test/payments has 1 dead letter(s): payment-1 (attempts 1, last error: card"
                + " declined)");
  }

  @Test
  void aServerPerTestMethodGivesEachTestItsOwnServer() {
    ServerPerMethod.baseUrls.clear();
    Run.passing(ServerPerMethod.class, 2);

    assertThat(ServerPerMethod.baseUrls).hasSize(2).doesNotHaveDuplicates();
  }

  @Test
  void aServerPerTestMethodIsNotThereForBeforeAllMethodsAndTheFailureSaysWhy() {
    Throwable failure = Run.failureOfTheClass(ServerPerMethodInBeforeAll.class);

    assertThat(failure)
        .isInstanceOf(ParameterResolutionException.class)
        .hasMessageContaining("PER_METHOD")
        .hasMessageContaining("@BeforeEach");
  }

  @Test
  void aFreshNamespacePerTestKeepsEachTestsQueuesFromTheOthers() {
    FreshNamespaces.seen.clear();
    FreshNamespaces.refusedElsewhere = null;
    Run.passing(FreshNamespaces.class, 2);

    List<LineupTestServer> seen = FreshNamespaces.seen;
    assertThat(seen).hasSize(2);
    assertThat(seen.get(0).baseUrl()).as("one server").isEqualTo(seen.get(1).baseUrl());
    assertThat(seen)
        .extracting(LineupTestServer::namespace)
        .doesNotHaveDuplicates()
        .allSatisfy(namespace -> assertThat(namespace).matches("team-[0-9a-f]{8}"));
    assertThat(FreshNamespaces.refusedElsewhere)
        .as("one test's token on the other's queue")
        .isInstanceOf(ForbiddenException.class);
  }

  @Test
  void nestedClassesShareTheirEnclosingClassesServer() {
    WithNestedClasses.baseUrls.clear();
    Run.passing(WithNestedClasses.class, 2);

    assertThat(WithNestedClasses.baseUrls).hasSize(2).containsOnly(WithNestedClasses.outer);
  }

  @Test
  void theServerSettingsOfTheBuilderApply() {
    Run.passing(SmallPayloads.class, 1);
  }

  @Test
  void onAnExistingRedisTheJobsOutliveTheServerAndRedisKeepsRunning() {
    try (RedisProcess redis = RedisProcess.builder().build().start()) {
      existingRedisUrl = redis.uri();
      Run.passing(PublishesOnAnExistingRedis.class, 1);
      Run.passing(ReadsTheExistingRedis.class, 1);

      assertThat(redis.isRunning()).isTrue();
    }
  }

  /** The Redis the examples on an existing Redis use; set before they are run. */
  static String existingRedisUrl;

  // The classes below are run by the tests above only: surefire skips nested classes.

  @LineupTest
  static class LeavesAJobReady {
    @Test
    void waitsForAQueueNobodyServes(LineupClient client, LineupTestServer lineup) {
      client.publish(lineup.queue("stuck"), NewJob.ofJson("{}"));
      lineup.awaitIdle("stuck", SHORT_WAIT);
    }
  }

  @LineupTest
  static class LeavesAJobLeased {
    @Test
    void waitsWhileAJobIsLeased(LineupClient client, LineupTestServer lineup) {
      QueueName queue = lineup.queue("held");
      client.publish(queue, NewJob.ofJson("{}"));
      assertThat(client.lease(queue, 1, Duration.ofSeconds(10))).hasSize(1);
      lineup.awaitIdle(queue, SHORT_WAIT);
    }
  }

  @LineupTest
  static class MakesADeadLetter {
    @Test
    void failsAPayment(LineupClient client, LineupTestServer lineup) {
      QueueName payments = lineup.queue("payments");
      client.publish(payments, NewJob.ofJson("{}").id("payment-1").maxAttempts(1));
      client.nack(client.lease(payments, 1, Duration.ofSeconds(10)).get(0), "card declined", null);
      lineup.assertNoDeadLetters(payments);
    }
  }

  @LineupTest(lifecycle = ServerLifecycle.PER_METHOD)
  static class ServerPerMethod {
    static final List<String> baseUrls = new ArrayList<>();

    @Test
    void one(LineupTestServer lineup) {
      baseUrls.add(lineup.baseUrl());
    }

    @Test
    void another(LineupTestServer lineup) {
      baseUrls.add(lineup.baseUrl());
    }
  }

  @LineupTest(lifecycle = ServerLifecycle.PER_METHOD)
  static class ServerPerMethodInBeforeAll {
    @BeforeAll
    static void tooEarly(LineupTestServer lineup) {}

    @Test
    void neverRuns() {}
  }

  @LineupTest(namespace = "team", freshNamespacePerTest = true)
  static class FreshNamespaces {
    static final List<LineupTestServer> seen = new ArrayList<>();
    static Throwable refusedElsewhere;

    @Test
    void one(LineupClient client, LineupTestServer lineup) {
      publishAndTryTheOthersQueue(client, lineup);
    }

    @Test
    void another(LineupClient client, LineupTestServer lineup) {
      publishAndTryTheOthersQueue(client, lineup);
    }

    /** The test that runs second reads the first one's queue with its own token. */
    private static void publishAndTryTheOthersQueue(LineupClient client, LineupTestServer lineup) {
      client.publish(lineup.queue("work"), NewJob.ofJson("{}"));
      if (!seen.isEmpty()) {
        try {
          client.stats(seen.get(0).queue("work"));
        } catch (RuntimeException e) {
          refusedElsewhere = e;
        }
      }
      seen.add(lineup);
    }
  }

  @LineupTest
  static class WithNestedClasses {
    static final List<String> baseUrls = new ArrayList<>();
    static String outer;

    @BeforeAll
    static void remember(LineupTestServer lineup) {
      outer = lineup.baseUrl();
    }

    @Nested
    class Inner {
      @Test
      void seesTheServer(LineupTestServer lineup) {
        baseUrls.add(lineup.baseUrl());
      }

      @Nested
      class Innermost {
        @Test
        void seesTheServerToo(LineupTestServer lineup) {
          baseUrls.add(lineup.baseUrl());
        }
      }
    }
  }

  static class SmallPayloads {
    @RegisterExtension
    static LineupExtension lineup =
        LineupExtension.builder()
            .namespace("small")
            .serverSettings(settings -> settings.maxPayloadBytes(1024))
            .build();

    @Test
    void refusesALargePayload(LineupClient client, LineupTestServer server) {
      byte[] large = "x".repeat(2048).getBytes(StandardCharsets.UTF_8);
      assertThat(server.namespace()).isEqualTo("small");
      assertThatThrownBy(() -> client.publish(server.queue("files"), NewJob.of(large)))
          .isInstanceOf(PayloadTooLargeException.class);
    }
  }

  static class PublishesOnAnExistingRedis {
    @RegisterExtension
    static LineupExtension lineup = LineupExtension.builder().redisUrl(existingRedisUrl).build();

    @Test
    void publishes(LineupClient client, LineupTestServer server) {
      assertThat(server.redisUrl()).isEqualTo(existingRedisUrl);
      client.publish(server.queue("kept"), NewJob.ofJson("{}").id("kept-1"));
    }
  }

  static class ReadsTheExistingRedis {
    @RegisterExtension
    static LineupExtension lineup = LineupExtension.builder().redisUrl(existingRedisUrl).build();

    @Test
    void findsTheJob(LineupTestServer server) {
      assertThat(server.job("kept", "kept-1").state()).isEqualTo(JobState.READY);
    }
  }
}
