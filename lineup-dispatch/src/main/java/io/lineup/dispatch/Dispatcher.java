package io.lineup.dispatch;

import io.lineup.core.Lineup;
import io.lineup.dispatch.egress.CheckedResolver;
import io.lineup.dispatch.egress.EgressPolicy;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * API dispatch on this instance, on the engine's public API: {@link #endpoints()} (stored in Redis,
 * read by every instance every {@value #SYNC_INTERVAL_MS} ms), {@link #tasks()} (engine jobs in the
 * endpoint's queue), the dispatchers that send them, the {@link #breakers()} and the namespaces'
 * {@link #callbacks()}. Starts with {@link #start()}; {@link #close()} stops its work here.
 *
 * <pre>{@code
 * EgressPolicy egress = new EgressPolicy(EgressAllowList.parse("127.0.0.1"), List.of());
 * try (Dispatcher dispatch =
 *     new Dispatcher(lineup, 1 << 20, TaskArchive.redisOnly(lineup), egress)) {
 *   dispatch.start();
 *   EndpointKey key = new EndpointKey("shop", "mailer");
 *   dispatch.endpoints().put(key, EndpointSpec.of(URI.create("http://127.0.0.1:8025")));
 *   TaskSubmission mail = TaskSubmission.of("POST", "/send", "text/plain", body);
 *   Task task = dispatch.tasks().submit(key, mail).task();
 * }
 * }</pre>
 */
public final class Dispatcher implements AutoCloseable {
  /** How often an instance reads the endpoints and breakers from Redis, in milliseconds. */
  public static final long SYNC_INTERVAL_MS = EndpointSync.INTERVAL_MS;

  /**
   * Lease length beyond the attempt timeout: 2 s. A killed instance's tasks go back in line this
   * long after their attempt would have timed out.
   */
  public static final long LEASE_MARGIN_MS = 2_000;

  /** Longest wait for each part to stop on close. */
  private static final Duration CLOSE_WAIT = Duration.ofSeconds(15);

  private final Lineup lineup;
  private final EgressClient egress;
  private final CircuitBreakers breakers;
  private final NamespaceCallbacks namespaceCallbacks;
  private final Callbacks callbacks;
  private final EndpointSync sync;
  private final Endpoints endpoints;
  private final Tasks tasks;
  private final AdaptiveConcurrency adaptive;

  /**
   * @param lineup the engine
   * @param maxPayloadBytes the engine's payload limit; a task body may use it less {@link
   *     TaskRequest#HEAD_ROOM_BYTES}
   * @param archive where tasks whose Redis record is gone are found
   * @param egressPolicy what tasks and callbacks may connect to
   */
  public Dispatcher(
      Lineup lineup, int maxPayloadBytes, TaskArchive archive, EgressPolicy egressPolicy) {
    this(lineup, maxPayloadBytes, archive, egressPolicy, new CheckedResolver(egressPolicy));
  }

  /**
   * @param resolver resolves targets under the policy (tests give one with their own names)
   */
  Dispatcher(
      Lineup lineup,
      int maxPayloadBytes,
      TaskArchive archive,
      EgressPolicy egressPolicy,
      CheckedResolver resolver) {
    this.lineup = lineup;
    this.egress = new EgressClient(resolver);
    SubmitEtas submitEtas = new SubmitEtas(lineup);
    this.adaptive = new AdaptiveConcurrency(lineup, submitEtas);
    QueueLimits limits = new QueueLimits(lineup, submitEtas, adaptive);
    RegistrationCheck registration = new RegistrationCheck(egressPolicy);
    EndpointStore store = new EndpointStore(lineup.records("dispatch-endpoints"));
    this.breakers = new CircuitBreakers(new Breakers(lineup.records("dispatch-breakers")), limits);
    this.namespaceCallbacks =
        new NamespaceCallbacks(lineup.records("dispatch-callbacks"), registration);
    this.callbacks = new Callbacks(this);
    this.sync =
        new EndpointSync(
            store,
            breakers,
            limits,
            (key, spec) -> new EndpointDispatcher(this, key, spec),
            callbacks::sync);
    this.endpoints = new Endpoints(lineup, store, breakers, limits, registration, sync);
    this.tasks =
        new Tasks(
            lineup,
            archive,
            endpoints,
            breakers,
            namespaceCallbacks,
            callbacks,
            submitEtas,
            Math.max(0, maxPayloadBytes - TaskRequest.HEAD_ROOM_BYTES));
  }

  /** Starts following the endpoints (and sending their tasks) and the callbacks. */
  public void start() {
    sync.start();
  }

  /** The endpoints: create, replace, read, list, delete. */
  public Endpoints endpoints() {
    return endpoints;
  }

  /** The tasks: submit, read, cancel, list the dead. */
  public Tasks tasks() {
    return tasks;
  }

  /** The endpoints' adaptive concurrency: limits in force and the moves this instance made. */
  public AdaptiveConcurrency adaptive() {
    return adaptive;
  }

  /** The endpoints' circuit breakers. */
  public CircuitBreakers breakers() {
    return breakers;
  }

  /** The namespaces' callback settings. */
  public NamespaceCallbacks callbacks() {
    return namespaceCallbacks;
  }

  Lineup lineup() {
    return lineup;
  }

  /** The client of every task and callback request. */
  EgressClient egress() {
    return egress;
  }

  /** Stops the dispatchers (their running requests finish or go back in line) and callbacks. */
  @Override
  public void close() {
    closeAll(List.of(sync::close, callbacks::close));
    egress.close();
  }

  /** Runs the closes at once, each on its own thread, and waits for each a while. */
  static void closeAll(List<Runnable> closes) {
    List<Thread> closing = new ArrayList<>();
    for (Runnable close : closes) {
      closing.add(Thread.ofVirtual().start(close));
    }
    for (Thread t : closing) {
      try {
        t.join(CLOSE_WAIT);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
  }
}
