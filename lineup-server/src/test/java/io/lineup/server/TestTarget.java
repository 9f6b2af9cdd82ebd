package io.lineup.server;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;

/**
 * An HTTP server on 127.0.0.1 that a dispatch test sends tasks to: settable latency, status, {@code
 * Retry-After} and body per request, a counter of requests in flight with its maximum, and a log of
 * every request (arrival time, path, headers, body).
 */
final class TestTarget implements AutoCloseable {
  /** One request as it arrived. */
  record Seen(
      long arrivedNanos,
      long arrivedMillis,
      String method,
      String path,
      Map<String, List<String>> headers,
      byte[] body) {
    String header(String name) {
      for (var e : headers.entrySet()) {
        if (e.getKey().equalsIgnoreCase(name)) {
          return e.getValue().get(0);
        }
      }
      return null;
    }

    String bodyText() {
      return new String(body, StandardCharsets.UTF_8);
    }
  }

  /** How to answer one request. */
  record Answer(int status, long latencyMs, String retryAfter, String body) {
    static Answer ok(String body) {
      return new Answer(200, 0, null, body);
    }

    static Answer status(int status) {
      return new Answer(status, 0, null, "{}");
    }
  }

  private final HttpServer server;
  private final ConcurrentLinkedQueue<Seen> seen = new ConcurrentLinkedQueue<>();
  private final AtomicInteger inFlight = new AtomicInteger();
  private final AtomicInteger maxInFlight = new AtomicInteger();
  private volatile Function<Seen, Answer> answers = s -> Answer.ok("{\"ok\":true}");

  private TestTarget() throws IOException {
    server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 1024);
    server.setExecutor(Executors.newVirtualThreadPerTaskExecutor());
    server.createContext("/", this::handle);
    server.start();
  }

  static TestTarget start() {
    try {
      return new TestTarget();
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  /** {@code http://127.0.0.1:PORT}. */
  String url() {
    return "http://127.0.0.1:" + server.getAddress().getPort();
  }

  /** Answers every later request with what this function says. */
  TestTarget answering(Function<Seen, Answer> answers) {
    this.answers = answers;
    return this;
  }

  /** Answers every later request with 200 after this latency. */
  TestTarget latency(long millis) {
    return answering(s -> new Answer(200, millis, null, "{\"ok\":true}"));
  }

  List<Seen> seen() {
    return new ArrayList<>(seen);
  }

  int count() {
    return seen.size();
  }

  /** Requests being answered now. */
  int inFlight() {
    return inFlight.get();
  }

  int maxInFlight() {
    return maxInFlight.get();
  }

  void reset() {
    seen.clear();
    maxInFlight.set(0);
  }

  private void handle(HttpExchange exchange) throws IOException {
    long nanos = System.nanoTime();
    long millis = System.currentTimeMillis();
    int now = inFlight.incrementAndGet();
    maxInFlight.accumulateAndGet(now, Math::max);
    try (exchange) {
      Answer answer;
      try {
        answer = recordAndWait(exchange, nanos, millis);
      } finally {
        // Counted out before the answer leaves: once it has, the dispatcher may send its next
        // request at once, and this thread, descheduled between sending and counting, would have
        // the target seem to handle one request more than it does.
        inFlight.decrementAndGet();
      }
      byte[] out =
          answer.body() == null ? new byte[0] : answer.body().getBytes(StandardCharsets.UTF_8);
      exchange.getResponseHeaders().add("Content-Type", "application/json");
      if (answer.retryAfter() != null) {
        exchange.getResponseHeaders().add("Retry-After", answer.retryAfter());
      }
      exchange.sendResponseHeaders(answer.status(), out.length == 0 ? -1 : out.length);
      if (out.length > 0) {
        exchange.getResponseBody().write(out);
      }
    }
  }

  /** Reads and records the request, then waits out its answer's latency; returns the answer. */
  private Answer recordAndWait(HttpExchange exchange, long nanos, long millis) throws IOException {
    byte[] body;
    try (InputStream in = exchange.getRequestBody()) {
      body = in.readAllBytes();
    }
    Seen request =
        new Seen(
            nanos,
            millis,
            exchange.getRequestMethod(),
            exchange.getRequestURI().getRawPath()
                + (exchange.getRequestURI().getRawQuery() == null
                    ? ""
                    : "?" + exchange.getRequestURI().getRawQuery()),
            Map.copyOf(exchange.getRequestHeaders()),
            body);
    seen.add(request);
    Answer answer = answers.apply(request);
    if (answer.latencyMs() > 0) {
      try {
        Thread.sleep(answer.latencyMs());
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
    return answer;
  }

  @Override
  public void close() {
    server.stop(0);
  }
}
