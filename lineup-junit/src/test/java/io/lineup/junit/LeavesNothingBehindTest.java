package io.lineup.junit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.lineup.client.LineupClient;
import io.lineup.client.NewJob;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Example test classes that use the extension are run as JUnit runs any test class; once they end,
 * nothing they started is left: no server or Redis answers, no redis-server process runs, no
 * temporary folder and no thread of theirs remains, whether their tests passed, failed, or their
 * server could not start.
 */
class LeavesNothingBehindTest {
  /** How long the stopped threads and processes get to be gone; a busy machine is slow. */
  private static final Duration GONE_WITHIN = Duration.ofSeconds(30);

  @Test
  void afterEveryKindOfTestClassNoServerRedisProcessFolderOrThreadRemains() throws IOException {
    // A first run starts what the JVM keeps for itself (the process reaper, HTTP client pools).
    Run.classes(PerClass.class);
    Set<String> folderBefore = ourFolders();
    Set<Long> threadsBefore = liveThreadIds();
    Started.all.clear();

    Run.classes(
        PerClass.class,
        PerMethod.class,
        FreshNamespaces.class,
        FailingTest.class,
        ServerCannotStart.class);

    assertThat(Started.all).as("servers the examples saw").hasSize(1 + 2 + 2 + 1);
    for (LineupTestServer server : Started.all) {
      assertThat(answers(server.baseUrl())).as("%s answers", server.baseUrl()).isFalse();
      assertThat(answers(server.redisUrl())).as("%s answers", server.redisUrl()).isFalse();
      assertThat(server.folder()).doesNotExist();
    }
    assertThat(ourFolders()).as("temporary folders").isEqualTo(folderBefore);
    await("redis-server processes to be gone")
        .atMost(GONE_WITHIN)
        .untilAsserted(() -> assertThat(redisProcesses()).isEmpty());
    await("the threads the examples started to end")
        .atMost(GONE_WITHIN)
        .pollInSameThread() // Awaitility's own polling thread would count as new.
        .untilAsserted(() -> assertThat(newThreads(threadsBefore)).isEmpty());
  }

  // The classes below are run by the test above only: surefire skips nested classes.

  /** The servers the examples saw. */
  static final class Started {
    static final List<LineupTestServer> all = new ArrayList<>();
  }

  @LineupTest
  static class PerClass {
    @Test
    void publishes(LineupClient client, LineupTestServer lineup) {
      Started.all.add(lineup);
      client.publish(lineup.queue("work"), NewJob.ofJson("{}"));
    }
  }

  @LineupTest(lifecycle = ServerLifecycle.PER_METHOD)
  static class PerMethod {
    @Test
    void one(LineupTestServer lineup) {
      Started.all.add(lineup);
    }

    @Test
    void another(LineupTestServer lineup) {
      Started.all.add(lineup);
    }
  }

  @LineupTest(freshNamespacePerTest = true)
  static class FreshNamespaces {
    @Test
    void one(LineupTestServer lineup) {
      Started.all.add(lineup);
    }

    @Test
    void another(LineupTestServer lineup) {
      Started.all.add(lineup);
    }
  }

  @LineupTest
  static class FailingTest {
    @Test
    void fails(LineupTestServer lineup) {
      Started.all.add(lineup);
      throw new AssertionError("failing on purpose");
    }
  }

  static class ServerCannotStart {
    @org.junit.jupiter.api.extension.RegisterExtension
    static LineupExtension lineup =
        LineupExtension.builder().serverSettings(settings -> settings.maxPayloadBytes(0)).build();

    @Test
    void neverRuns() {}
  }

  private static boolean answers(String url) {
    URI uri = URI.create(url);
    try (Socket socket = new Socket()) {
      socket.connect(new InetSocketAddress(uri.getHost(), uri.getPort()), 1000);
      return true;
    } catch (IOException refused) {
      return false;
    }
  }

  private static Set<String> ourFolders() throws IOException {
    try (Stream<Path> files = Files.list(Path.of(System.getProperty("java.io.tmpdir")))) {
      return files
          .map(path -> path.getFileName().toString())
          .filter(name -> name.startsWith(RunningLineup.FOLDER_PREFIX))
          .collect(Collectors.toSet());
    }
  }

  private static List<String> redisProcesses() {
    return ProcessHandle.current()
        .descendants()
        .filter(ProcessHandle::isAlive)
        .map(process -> process.info().commandLine().orElse("pid " + process.pid()))
        .toList();
  }

  private static Set<Long> liveThreadIds() {
    return Thread.getAllStackTraces().keySet().stream()
        .map(Thread::threadId)
        .collect(Collectors.toSet());
  }

  /** Threads alive now that were not before, except the JVM's own pools. */
  private static List<String> newThreads(Set<Long> before) {
    return Thread.getAllStackTraces().keySet().stream()
        .filter(Thread::isAlive)
        .filter(thread -> !before.contains(thread.threadId()))
        .map(Thread::getName)
        .toList();
  }
}
