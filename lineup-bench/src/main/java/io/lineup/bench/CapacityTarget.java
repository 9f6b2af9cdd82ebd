package io.lineup.bench;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadLocalRandom;

/**
 * An endpoint of limited capacity for the adaptive and deadline figures: the JDK's {@code
 * HttpServer} on 127.0.0.1 (a few hundred requests a second, so its cost per request does not
 * matter here, unlike {@link NoOpTarget}'s), modelled on a server with a pool of workers and a
 * bounded backlog:
 *
 * <ul>
 *   <li>at most {@link #capacity()} requests are worked on at once; each takes the base service
 *       time, growing linearly with the number of busy workers up to {@value #FULL_LOAD_FACTOR} ×
 *       the base with every worker busy (contention for what the workers share), give or take up to
 *       {@value #SERVICE_SPREAD} of it at random;
 *   <li>a request that finds every worker busy waits for one, first come first served, so pushing
 *       beyond the capacity shows first as latency;
 *   <li>a request arriving while as many wait as there are workers (so twice the capacity is open)
 *       is refused at once: 429 with {@code Retry-After: 1}.
 * </ul>
 *
 * <p>The capacity may change at any time ({@link #capacity(int)}): work already started finishes,
 * waiting requests get a worker as they fall under the new capacity. Every answer is recorded
 * ({@link Request}: arrival, end, status, the {@code Lineup-Task-Id} header and the bench's own
 * serial header), and every {@value #SAMPLE_EVERY_MS} ms how many requests are open (worked on or
 * waiting).
 */
final class CapacityTarget implements AutoCloseable {
  /** Header each submitted task carries with its number, so refused tasks can be told apart. */
  static final String SERIAL_HEADER = "X-Bench-Serial";

  /** Service time with every worker busy, as a multiple of the base service time. */
  static final double FULL_LOAD_FACTOR = 1.25;

  /** Seconds a refused request is told to wait before trying again. */
  static final int RETRY_AFTER_S = 1;

  /** Period of the open-request samples, in milliseconds. */
  static final int SAMPLE_EVERY_MS = 50;

  /**
   * One answered request.
   *
   * @param arrivalNanos when its head was read ({@link System#nanoTime()})
   * @param startNanos when a worker took it (its arrival when refused)
   * @param endNanos when its work was done and its answer was about to be written
   * @param status 204 when served, 429 when refused
   * @param taskId its {@code Lineup-Task-Id} header, or null
   * @param serial its {@link #SERIAL_HEADER}, or -1
   */
  record Request(
      long arrivalNanos, long startNanos, long endNanos, int status, String taskId, long serial) {
    double latencyMillis() {
      return (endNanos - arrivalNanos) / 1e6;
    }
  }

  /**
   * Requests open at one moment.
   *
   * @param nanos when ({@link System#nanoTime()})
   * @param open requests worked on or waiting
   * @param capacity the capacity then
   */
  record Sample(long nanos, int open, int capacity) {}

  /** A request's service time varies by up to this share either way, uniformly at random. */
  static final double SERVICE_SPREAD = 0.1;

  private final long baseServiceNanos;
  private final HttpServer server;
  private final ExecutorService threads = Executors.newVirtualThreadPerTaskExecutor();
  private final ConcurrentLinkedQueue<Request> requests = new ConcurrentLinkedQueue<>();
  private final ConcurrentLinkedQueue<Sample> samples = new ConcurrentLinkedQueue<>();
  private final ArrayDeque<CountDownLatch> waiting = new ArrayDeque<>();
  private final Thread sampler;
  private int capacity;
  private int working;
  private int open;
  private volatile boolean closed;

  /**
   * Starts the endpoint on a free port of 127.0.0.1.
   *
   * @param capacity requests worked on at once, at least 1
   * @param baseServiceMillis service time of a request with one worker busy, in milliseconds
   * @throws IOException when the port cannot be opened
   */
  CapacityTarget(int capacity, long baseServiceMillis) throws IOException {
    this.capacity = capacity;
    this.baseServiceNanos = baseServiceMillis * 1_000_000;
    this.server =
        HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 1024);
    server.setExecutor(threads);
    server.createContext("/", this::handle);
    server.start();
    this.sampler = Thread.ofPlatform().daemon().name("bench-capacity-sampler").start(this::sample);
  }

  /** The port it listens on, on 127.0.0.1. */
  int port() {
    return server.getAddress().getPort();
  }

  /** Service time with every worker busy, in milliseconds. */
  double fullLoadServiceMillis() {
    return baseServiceNanos * FULL_LOAD_FACTOR / 1e6;
  }

  /** Requests it works on at once now. */
  synchronized int capacity() {
    return capacity;
  }

  /** Changes how many requests it works on at once (at least 1). */
  synchronized void capacity(int capacity) {
    this.capacity = Math.max(1, capacity);
    grantWaiting();
  }

  /** Requests open now: worked on or waiting for a worker. */
  synchronized int open() {
    return open;
  }

  /** Every request answered so far. */
  List<Request> requests() {
    return new ArrayList<>(requests);
  }

  /** Every sample of open requests so far, oldest first. */
  List<Sample> samples() {
    return new ArrayList<>(samples);
  }

  private void handle(HttpExchange exchange) throws IOException {
    long arrival = System.nanoTime();
    try (exchange;
        InputStream body = exchange.getRequestBody()) {
      body.transferTo(OutputStream.nullOutputStream());
      String taskId = exchange.getRequestHeaders().getFirst("Lineup-Task-Id");
      long serial = serial(exchange.getRequestHeaders().getFirst(SERIAL_HEADER));
      CountDownLatch turn;
      synchronized (this) {
        if (open >= 2 * capacity) {
          turn = null;
        } else {
          open++;
          turn = new CountDownLatch(1);
          waiting.add(turn);
          grantWaiting();
        }
      }
      if (turn == null) {
        requests.add(new Request(arrival, arrival, System.nanoTime(), 429, taskId, serial));
        exchange.getResponseHeaders().set("Retry-After", Integer.toString(RETRY_AFTER_S));
        exchange.sendResponseHeaders(429, -1);
        return;
      }
      long started;
      long done;
      try {
        turn.await();
        started = System.nanoTime();
        long busy;
        long full;
        synchronized (this) {
          busy = working;
          full = capacity;
        }
        double load = Math.min(1.0, busy / (double) full);
        // Spread evenly over ±SERVICE_SPREAD, as a real worker's times vary: with one fixed time,
        // completions keep whatever clumps a step left (each freed worker takes the next request
        // in the same phase), and a request waiting for a worker waits out a clump's gap.
        double spread = 1 + SERVICE_SPREAD * (2 * ThreadLocalRandom.current().nextDouble() - 1);
        long service = (long) (baseServiceNanos * (1 + (FULL_LOAD_FACTOR - 1) * load) * spread);
        Thread.sleep(service / 1_000_000, (int) (service % 1_000_000));
        done = System.nanoTime();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return;
      } finally {
        leave();
      }
      // Recorded before the answer is written, in the order workers are freed.
      requests.add(new Request(arrival, started, done, 204, taskId, serial));
      exchange.sendResponseHeaders(204, -1);
    }
  }

  private synchronized void leave() {
    working--;
    open--;
    grantWaiting();
  }

  /** Gives free workers to waiting requests, oldest first. Called holding the monitor. */
  private void grantWaiting() {
    while (working < capacity && !waiting.isEmpty()) {
      working++;
      waiting.poll().countDown();
    }
  }

  private static long serial(String header) {
    if (header == null) {
      return -1;
    }
    try {
      return Long.parseLong(header.trim());
    } catch (NumberFormatException e) {
      return -1;
    }
  }

  private void sample() {
    while (!closed) {
      synchronized (this) {
        samples.add(new Sample(System.nanoTime(), open, capacity));
      }
      try {
        Thread.sleep(SAMPLE_EVERY_MS);
      } catch (InterruptedException e) {
        return; // closed
      }
    }
  }

  @Override
  public void close() {
    closed = true;
    server.stop(0);
    threads.shutdownNow();
    sampler.interrupt();
  }
}
