package io.lineup.server;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;
import org.eclipse.jetty.io.Connection;
import org.eclipse.jetty.io.EndPoint;
import org.eclipse.jetty.server.AbstractConnectionFactory;
import org.eclipse.jetty.server.Connector;
import org.eclipse.jetty.server.HttpConnectionFactory;
import org.eclipse.jetty.util.component.Graceful;

/**
 * Makes the {@link LaneConnection} every new connection starts with, ahead of Jetty's HTTP/1.1
 * connection factory (which takes a connection over when the lane hands it on). Counts the requests
 * the lane connections are serving, so that Jetty's graceful stop waits for them as it waits for
 * its own.
 */
final class LaneConnectionFactory extends AbstractConnectionFactory implements Graceful {
  /** The protocol name this factory is found by in the connector. */
  static final String PROTOCOL = "lineup-lane";

  /**
   * The largest body the lane reads itself, in bytes (64 KiB: a publish of a few hundred small
   * jobs); a request with a larger one is handed to Jetty and served by the routes, up to the
   * server's body limit.
   */
  static final int MAX_BODY_BYTES = 64 * 1024;

  private final HttpConnectionFactory http;
  private final RequestGate gate;
  private final LaneRequestParser parser;
  private final AtomicInteger inProgress = new AtomicInteger();
  private volatile CompletableFuture<Void> shutdown;

  /**
   * @param routes the lane's routes
   * @param gate what every request passes
   * @param http the connection factory a connection is handed to; the lane reads heads no longer
   *     than its request header limit and its input buffer
   */
  LaneConnectionFactory(List<LaneRoute> routes, RequestGate gate, HttpConnectionFactory http) {
    super(PROTOCOL);
    this.http = http;
    this.gate = gate;
    this.parser =
        new LaneRequestParser(
            routes,
            Math.min(http.getHttpConfiguration().getRequestHeaderSize(), http.getInputBufferSize()),
            MAX_BODY_BYTES);
  }

  @Override
  public Connection newConnection(Connector connector, EndPoint endPoint) {
    return configure(new LaneConnection(this, connector, endPoint), connector, endPoint);
  }

  HttpConnectionFactory http() {
    return http;
  }

  RequestGate gate() {
    return gate;
  }

  LaneRequestParser parser() {
    return parser;
  }

  void requestStarted() {
    inProgress.incrementAndGet();
  }

  void requestEnded() {
    if (inProgress.decrementAndGet() == 0) {
      CompletableFuture<Void> waiting = shutdown;
      if (waiting != null) {
        waiting.complete(null);
      }
    }
  }

  /** Done when no lane request is in progress (new ones are refused by then: the gate drains). */
  @Override
  public CompletableFuture<Void> shutdown() {
    CompletableFuture<Void> done = new CompletableFuture<>();
    shutdown = done;
    if (inProgress.get() == 0) {
      done.complete(null);
    }
    return done;
  }

  @Override
  public boolean isShutdown() {
    return shutdown != null;
  }
}
