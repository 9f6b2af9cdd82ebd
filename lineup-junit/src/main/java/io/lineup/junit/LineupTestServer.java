package io.lineup.junit;

import io.lineup.api.resource.DeadJob;
import io.lineup.api.resource.DeadPage;
import io.lineup.api.resource.Job;
import io.lineup.api.resource.QueueStats;
import io.lineup.client.LineupClient;
import io.lineup.client.NotFoundException;
import io.lineup.client.QueueName;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.stream.Collectors;

/**
 * A Lineup server that {@link LineupExtension} started for a test, seen from one namespace: its
 * address, its admin token, the namespace and its token, a client of that token, and helpers that
 * wait for a queue to be idle and read its dead letters.
 *
 * <p>The helpers read with the admin token, so they work whatever scopes the namespace's token has,
 * and on queues of any namespace. A queue that was never published to nor configured counts as idle
 * and without dead letters. Safe to use from several threads.
 */
public final class LineupTestServer {
  /** How long {@link #awaitIdle(QueueName)} waits at most: 30 s, generous for a busy machine. */
  public static final Duration DEFAULT_IDLE_TIMEOUT = Duration.ofSeconds(30);

  /** How often {@link #awaitIdle(QueueName, Duration)} reads the queue's counts: every 10 ms. */
  public static final Duration IDLE_POLL_INTERVAL = Duration.ofMillis(10);

  /** How many dead letters an assertion failure lists; it gives the number of the others. */
  public static final int MAX_LISTED_DEAD_LETTERS = 10;

  /**
   * Dead letters read per request by {@link #deadLetters(QueueName)}: the server's largest page.
   */
  static final int DEAD_PAGE = 1000;

  private final RunningLineup running;
  private final String namespace;
  private final String token;
  private final LineupClient client;

  LineupTestServer(RunningLineup running, String namespace, String token) {
    this.running = running;
    this.namespace = namespace;
    this.token = token;
    this.client = LineupClient.connect(running.baseUrl(), token);
  }

  /** {@code http://127.0.0.1:PORT}: where the server listens. */
  public String baseUrl() {
    return running.baseUrl();
  }

  /** The server's admin token (random for each server), for code under test that needs it. */
  public String adminToken() {
    return running.adminToken();
  }

  /**
   * The Redis the server runs on, {@code redis://127.0.0.1:PORT} when the extension started it: for
   * code under test that uses the Java engine on the same queues.
   */
  public String redisUrl() {
    return running.redisUrl();
  }

  /** The namespace of this test's token: the configured one, or a fresh one per test method. */
  public String namespace() {
    return namespace;
  }

  /** This namespace's token (the scopes and highest priority the extension was given). */
  public String token() {
    return token;
  }

  /**
   * The client of {@link #token()}, the one injected as a {@link LineupClient} parameter. The
   * extension closes it; do not.
   */
  public LineupClient client() {
    return client;
  }

  /**
   * The queue {@code name} in this namespace.
   *
   * @throws IllegalArgumentException when the name is malformed
   */
  public QueueName queue(String name) {
    return QueueName.of(namespace, name);
  }

  /**
   * Issues one more token for this namespace, e.g. to test code that is given fewer scopes.
   *
   * @param maxPriority the highest priority it may publish with, -255 to 255
   * @param scopes one or more of {@code publish}, {@code consume}, {@code manage}, {@code read}
   * @return the token's text
   * @throws io.lineup.client.InvalidRequestException when a scope or the priority is out of range
   */
  public String issueToken(int maxPriority, String... scopes) {
    return running
        .admin()
        .admin()
        .createToken(namespace, List.of(scopes), maxPriority, "lineup-junit")
        .token();
  }

  /**
   * The queue's jobs by state; all zero for a queue never published to nor configured.
   *
   * @throws io.lineup.client.LineupClientException when the server answers with another error
   */
  public QueueStats.Counts counts(QueueName queue) {
    Objects.requireNonNull(queue, "queue");
    try {
      return running.admin().stats(queue).counts();
    } catch (NotFoundException unknown) {
      return new QueueStats.Counts(0, 0, 0, 0, 0);
    }
  }

  /** {@link #counts(QueueName)} of the queue {@code name} in this namespace. */
  public QueueStats.Counts counts(String name) {
    return counts(queue(name));
  }

  /**
   * Waits until the queue is idle, for at most {@link #DEFAULT_IDLE_TIMEOUT}; see {@link
   * #awaitIdle(QueueName, Duration)}.
   */
  public void awaitIdle(QueueName queue) {
    awaitIdle(queue, DEFAULT_IDLE_TIMEOUT);
  }

  /** {@link #awaitIdle(QueueName)} for the queue {@code name} in this namespace. */
  public void awaitIdle(String name) {
    awaitIdle(queue(name));
  }

  /**
   * Waits until the queue has no job ready, delayed or leased: every job published has been acked,
   * cancelled, expired or moved to dead letters. A job delayed or retried later keeps the queue
   * busy until it is done. Reads the queue's counts every {@link #IDLE_POLL_INTERVAL}.
   *
   * @param timeout the longest wait, positive
   * @throws AssertionError when the queue is still busy after {@code timeout}; the message gives
   *     its counts (ready, delayed, leased, dead, finished)
   * @throws IllegalArgumentException when the timeout is not positive
   * @throws IllegalStateException when the thread is interrupted while waiting
   */
  public void awaitIdle(QueueName queue, Duration timeout) {
    Objects.requireNonNull(queue, "queue");
    if (timeout == null || timeout.isNegative() || timeout.isZero()) {
      throw new IllegalArgumentException("The timeout must be positive, got " + timeout);
    }
    long deadline = System.nanoTime() + timeout.toNanos();
    while (true) {
      QueueStats.Counts counts = counts(queue);
      if (counts.ready() == 0 && counts.delayed() == 0 && counts.leased() == 0) {
        return;
      }
      if (System.nanoTime() - deadline >= 0) {
        throw new AssertionError(
            "Queue " + queue + " is not idle after " + describe(timeout) + ": " + describe(counts));
      }
      try {
        Thread.sleep(IDLE_POLL_INTERVAL);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException("Interrupted while waiting for " + queue + " to be idle");
      }
    }
  }

  /** {@link #awaitIdle(QueueName, Duration)} for the queue {@code name} in this namespace. */
  public void awaitIdle(String name, Duration timeout) {
    awaitIdle(queue(name), timeout);
  }

  /**
   * Every dead letter of the queue, oldest death first; none for a queue never published to.
   *
   * @throws io.lineup.client.LineupClientException when the server answers with another error
   */
  public List<DeadJob> deadLetters(QueueName queue) {
    Objects.requireNonNull(queue, "queue");
    List<DeadJob> all = new ArrayList<>();
    try {
      while (true) {
        DeadPage page = running.admin().deadLetters(queue, all.size(), DEAD_PAGE);
        all.addAll(page.jobs());
        if (page.jobs().isEmpty() || all.size() >= page.total()) {
          return List.copyOf(all);
        }
      }
    } catch (NotFoundException unknown) {
      return List.of();
    }
  }

  /** {@link #deadLetters(QueueName)} of the queue {@code name} in this namespace. */
  public List<DeadJob> deadLetters(String name) {
    return deadLetters(queue(name));
  }

  /**
   * Fails when the queue has dead letters.
   *
   * @throws AssertionError when it has some; the message lists the first {@link
   *     #MAX_LISTED_DEAD_LETTERS} (id, attempts, last error) and how many there are
   */
  public void assertNoDeadLetters(QueueName queue) {
    List<DeadJob> dead = deadLetters(queue);
    if (dead.isEmpty()) {
      return;
    }
    String listed =
        dead.stream()
            .limit(MAX_LISTED_DEAD_LETTERS)
            .map(job ->
                job.id()
                    + " (attempts "
                    + job.attempts()
                    + ", last error: "
                    + job.lastError()
                    + ")")
            .collect(Collectors.joining("; "));
    String more =
        dead.size() > MAX_LISTED_DEAD_LETTERS
            ? "; and " + (dead.size() - MAX_LISTED_DEAD_LETTERS) + " more"
            : "";
    throw new AssertionError(
        "Queue " + queue + " has " + dead.size() + " dead letter(s): " + listed + more);
  }

  /** {@link #assertNoDeadLetters(QueueName)} for the queue {@code name} in this namespace. */
  public void assertNoDeadLetters(String name) {
    assertNoDeadLetters(queue(name));
  }

  /**
   * One job: its state, attempts, last error and result.
   *
   * @throws NotFoundException when the queue has no such job (never published, or its record is
   *     past retention)
   */
  public Job job(QueueName queue, String id) {
    return running.admin().get(queue, id);
  }

  /** {@link #job(QueueName, String)} in the queue {@code name} of this namespace. */
  public Job job(String name, String id) {
    return job(queue(name), id);
  }

  @Override
  public String toString() {
    return "Lineup test server at " + baseUrl() + ", namespace " + namespace;
  }

  /** The server's temporary folder, which the extension deletes after; for its tests. */
  java.nio.file.Path folder() {
    return running.folder();
  }

  /** Closes this handle's client; for the extension. */
  void closeClient() {
    client.close();
  }

  private static String describe(QueueStats.Counts counts) {
    return "ready="
        + counts.ready()
        + ", delayed="
        + counts.delayed()
        + ", leased="
        + counts.leased()
        + " (dead="
        + counts.dead()
        + ", finished="
        + counts.finished()
        + ")";
  }

  private static String describe(Duration timeout) {
    return timeout.toMillis() + " ms";
  }
}
