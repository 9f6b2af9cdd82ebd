package io.lineup.dispatch;

import io.lineup.dispatch.egress.CheckedResolver;
import io.lineup.dispatch.egress.EgressRefusedException;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.eclipse.jetty.client.BytesRequestContent;
import org.eclipse.jetty.client.HttpClient;
import org.eclipse.jetty.client.ProxyAuthenticationProtocolHandler;
import org.eclipse.jetty.client.RedirectProtocolHandler;
import org.eclipse.jetty.client.Request;
import org.eclipse.jetty.client.UpgradeProtocolHandler;
import org.eclipse.jetty.client.WWWAuthenticationProtocolHandler;
import org.eclipse.jetty.client.transport.HttpClientTransportOverHTTP;
import org.eclipse.jetty.http.HttpCookieStore;
import org.eclipse.jetty.http.HttpField;
import org.eclipse.jetty.io.ClientConnector;
import org.eclipse.jetty.util.ssl.SslContextFactory;
import org.eclipse.jetty.util.thread.QueuedThreadPool;

/**
 * The one HTTP client of egress: every dispatch task and every callback is sent by it. Jetty's
 * {@link HttpClient} over HTTP/1.1 ({@code http} and {@code https}, the JVM's default trust store
 * and host name check), set up for requests a tenant describes:
 *
 * <ul>
 *   <li>connections open only to addresses the egress policy allows, checked on the resolved
 *       address each time a connection opens ({@link CheckedResolver});
 *   <li>redirects are not followed: a 3xx is the attempt's answer. No cookies are kept, no
 *       authentication or upgrade handling, no {@code Accept-Encoding} or {@code User-Agent} of its
 *       own (the dispatcher sets the agent), no proxy;
 *   <li>connections are kept alive and reused, at most {@value #MAX_CONNECTIONS_PER_TARGET} per
 *       target (scheme, host and port) at once; more requests wait for one in line; an idle one is
 *       closed after {@value #IDLE_TIMEOUT_MS} ms (under the 5 s after which common servers close
 *       theirs);
 *   <li>a connection must open within {@value #CONNECT_TIMEOUT_MS} ms; the response headers must
 *       come within the request's timeout and the body within a grace after it, or the request is
 *       aborted ({@link DeadlineException}); at most {@value #MAX_RESPONSE_HEAD_BYTES} bytes of
 *       response headers are read, and a body is read up to its limit, then the request is aborted.
 * </ul>
 *
 * <p>Thread-safe. A request blocks its (virtual) thread; interrupting the thread aborts it.
 */
final class EgressClient implements AutoCloseable {
  /**
   * Most connections open at once to one target (scheme, host and port): as many as one endpoint
   * may have requests in flight on this instance, so none of them waits for a connection.
   */
  static final int MAX_CONNECTIONS_PER_TARGET = EndpointSpec.MAX_LOCAL_CONCURRENCY;

  /** Most requests waiting for a connection to one target; more fail at once. */
  static final int MAX_QUEUED_PER_TARGET = 8192;

  /** Longest wait for a connection to open, in ms. */
  static final long CONNECT_TIMEOUT_MS = 10_000;

  /** An idle kept-alive connection is closed after this long, in ms. */
  static final long IDLE_TIMEOUT_MS = 4_000;

  /**
   * How much longer than a request's own deadline the connection may stay idle, in ms, so that the
   * deadline (a timeout outcome) ends a late exchange rather than Jetty's idle timer.
   */
  static final long IDLE_MARGIN_MS = 1_000;

  /** Most bytes of a response's status line and headers. */
  static final int MAX_RESPONSE_HEAD_BYTES = 64 * 1024;

  private final HttpClient client;

  /** A deadline of the request passed: connecting, or waiting for the answer's head or body. */
  static final class DeadlineException extends IOException {
    DeadlineException(String message) {
      super(message);
    }
  }

  /** The body passed its limit: what was read is kept, the rest is not wanted. */
  private static final class BodyCut extends IOException {
    BodyCut() {
      super("response body over its limit", null);
    }
  }

  /**
   * A started client.
   *
   * @param resolver resolves targets and drops the addresses the egress policy refuses
   */
  EgressClient(CheckedResolver resolver) {
    this(resolver, new SslContextFactory.Client());
  }

  /**
   * A started client with these TLS settings (tests trust their own certificate this way).
   *
   * @param tls how {@code https} targets are verified
   */
  EgressClient(CheckedResolver resolver, SslContextFactory.Client tls) {
    ClientConnector connector = new ClientConnector();
    connector.setSslContextFactory(tls);
    connector.setConnectTimeout(java.time.Duration.ofMillis(CONNECT_TIMEOUT_MS));
    QueuedThreadPool threads = new QueuedThreadPool();
    threads.setName("lineup-egress");
    threads.setDaemon(true);
    connector.setExecutor(threads);
    client = new HttpClient(new HttpClientTransportOverHTTP(connector));
    client.setExecutor(threads);
    client.setSocketAddressResolver(resolver);
    client.setFollowRedirects(false);
    client.setHttpCookieStore(new HttpCookieStore.Empty());
    client.setUserAgentField(null);
    client.setDefaultRequestContentType(null);
    client.setMaxConnectionsPerDestination(MAX_CONNECTIONS_PER_TARGET);
    client.setMaxRequestsQueuedPerDestination(MAX_QUEUED_PER_TARGET);
    client.setConnectTimeout(CONNECT_TIMEOUT_MS);
    client.setIdleTimeout(IDLE_TIMEOUT_MS);
    client.setMaxResponseHeadersSize(MAX_RESPONSE_HEAD_BYTES);
    try {
      client.start();
    } catch (Exception e) {
      throw new IllegalStateException("could not start the egress HTTP client", e);
    }
    // After start, which installs the defaults: no redirect followed, no authentication or upgrade
    // handled for the caller (the 1xx handlers stay, so an interim answer is skipped), and no
    // compressed answers asked for.
    client.getProtocolHandlers().remove(RedirectProtocolHandler.NAME);
    client.getProtocolHandlers().remove(WWWAuthenticationProtocolHandler.NAME);
    client.getProtocolHandlers().remove(ProxyAuthenticationProtocolHandler.NAME);
    client.getProtocolHandlers().remove(new UpgradeProtocolHandler().getName());
    client.getContentDecoderFactories().clear();
  }

  /**
   * Sends one request and reads its answer.
   *
   * @param uri an {@code http} or {@code https} URI with a host
   * @param method the request method
   * @param headers the request's own headers (checked by the caller)
   * @param body the request body, empty for none ({@code Content-Length: 0} is sent for a {@code
   *     POST}, {@code PUT} or {@code PATCH} without one)
   * @param headTimeoutMs the time from now by which the status line and headers must have come
   * @param bodyGraceMs the time after that by which the body must have come
   * @param limit the most body bytes wanted; one more is kept when the body is longer, and the rest
   *     is not read
   * @throws DeadlineException when a deadline passed (the request is aborted)
   * @throws EgressRefusedException when the egress policy refused every address of the target
   *     (nothing was sent)
   * @throws IOException when the target could not be reached or its answer was not HTTP
   * @throws InterruptedException when the thread was interrupted (the request is aborted)
   */
  TargetResponse send(
      URI uri,
      String method,
      Map<String, String> headers,
      byte[] body,
      long headTimeoutMs,
      long bodyGraceMs,
      int limit)
      throws IOException, InterruptedException {
    return send(uri, method, headers, body, headTimeoutMs, bodyGraceMs, limit, null);
  }

  /**
   * Sends one request as {@link #send(URI, String, Map, byte[], long, long, int)} does, and runs
   * {@code onSent} once the whole request has been written to the connection.
   *
   * @param onSent run on the client's own thread, so it must not block; null for none
   */
  TargetResponse send(
      URI uri,
      String method,
      Map<String, String> headers,
      byte[] body,
      long headTimeoutMs,
      long bodyGraceMs,
      int limit,
      Runnable onSent)
      throws IOException, InterruptedException {
    long start = System.nanoTime();
    Request request =
        client
            .newRequest(uri)
            .method(method)
            // While the exchange runs, the connection's idle timeout is this one. It is set past
            // the deadline so that the deadline below, not Jetty's timer, ends a late exchange.
            .idleTimeout(headTimeoutMs + bodyGraceMs + IDLE_MARGIN_MS, TimeUnit.MILLISECONDS)
            .headers(fields -> headers.forEach(fields::add));
    if (body.length > 0
        || method.equals("POST")
        || method.equals("PUT")
        || method.equals("PATCH")) {
      // No content type of Jetty's: the task's own (or none) is in the headers.
      request.body(new BytesRequestContent((String) null, body));
    }
    Answer answer = new Answer(limit);
    if (onSent != null) {
      request.onRequestSuccess(sent -> onSent.run());
    }
    request.onResponseHeaders(answer::headers);
    request.onResponseContent(answer::content);
    request.send(answer::complete);
    try {
      try {
        answer.head.get(headTimeoutMs, TimeUnit.MILLISECONDS);
      } catch (TimeoutException late) {
        throw abort(request, "no response headers within " + headTimeoutMs + " ms");
      }
      long left =
          TimeUnit.MILLISECONDS.toNanos(headTimeoutMs + bodyGraceMs) - (System.nanoTime() - start);
      try {
        return answer.done.get(Math.max(0, left), TimeUnit.NANOSECONDS);
      } catch (TimeoutException late) {
        throw abort(request, "response body not read within " + bodyGraceMs + " ms more");
      }
    } catch (InterruptedException cancelled) {
      request.abort(new InterruptedIOException("cancelled"));
      throw cancelled;
    } catch (ExecutionException failed) {
      if (timedOut(failed.getCause())) {
        // Jetty's own idle timer won the race with ours on a busy machine: still a deadline.
        throw answer.head.isDone() && !answer.head.isCompletedExceptionally()
            ? new DeadlineException("response body not read within " + bodyGraceMs + " ms more")
            : new DeadlineException("no response headers within " + headTimeoutMs + " ms");
      }
      throw failure(failed.getCause());
    }
  }

  private static boolean timedOut(Throwable cause) {
    for (Throwable t = cause; t != null; t = t.getCause()) {
      if (t instanceof TimeoutException) {
        return true;
      }
    }
    return false;
  }

  private static DeadlineException abort(Request request, String why) {
    DeadlineException deadline = new DeadlineException(why);
    request.abort(deadline);
    return deadline;
  }

  /** The failure as the caller handles it: a refusal or a deadline found in the cause chain. */
  private static IOException failure(Throwable cause) {
    for (Throwable t = cause; t != null; t = t.getCause()) {
      if (t instanceof EgressRefusedException || t instanceof DeadlineException) {
        return (IOException) t;
      }
    }
    if (cause instanceof IOException io) {
      return io;
    }
    return new IOException(
        cause.getMessage() == null ? cause.toString() : cause.getMessage(), cause);
  }

  /** Collects one answer: its head as soon as it comes, its body up to the limit. */
  private static final class Answer {
    final CompletableFuture<Void> head = new CompletableFuture<>();
    final CompletableFuture<TargetResponse> done = new CompletableFuture<>();
    private final CappedBytes bytes;
    private int status;
    private SortedMap<String, List<String>> fields;

    Answer(int limit) {
      this.bytes = new CappedBytes(limit);
    }

    void headers(org.eclipse.jetty.client.Response response) {
      SortedMap<String, List<String>> read = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
      for (HttpField field : response.getHeaders()) {
        read.computeIfAbsent(field.getName(), n -> new ArrayList<>()).add(field.getValue());
      }
      synchronized (this) {
        status = response.getStatus();
        fields = read;
      }
      head.complete(null);
    }

    void content(org.eclipse.jetty.client.Response response, java.nio.ByteBuffer buffer) {
      boolean cut;
      synchronized (this) {
        if (done.isDone()) {
          return;
        }
        cut = bytes.add(buffer);
      }
      if (cut) {
        done.complete(response());
        response.abort(new BodyCut());
      }
    }

    void complete(org.eclipse.jetty.client.Result result) {
      if (result.isFailed()) {
        head.completeExceptionally(result.getFailure());
        done.completeExceptionally(result.getFailure());
      } else {
        head.complete(null);
        done.complete(response());
      }
    }

    private synchronized TargetResponse response() {
      return new TargetResponse(status, fields, bytes.bytes());
    }
  }

  /** Stops the client: open connections close, requests in flight fail. */
  @Override
  public void close() {
    try {
      client.stop();
    } catch (Exception e) {
      // Closing anyway: nothing more to do with a client that would not stop cleanly.
    }
  }
}
