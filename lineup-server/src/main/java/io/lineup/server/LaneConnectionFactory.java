package io.lineup.server;

import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.eclipse.jetty.io.Connection;
import org.eclipse.jetty.io.EndPoint;
import org.eclipse.jetty.server.AbstractConnectionFactory;
import org.eclipse.jetty.server.Connector;
import org.eclipse.jetty.server.HttpConnectionFactory;

/**
 * Makes the {@link LaneConnection} every new connection starts with, ahead of Jetty's HTTP/1.1
 * connection factory (which takes a connection over when the lane hands it on), and counts the
 * requests the lane connections are serving. Jetty's graceful stop waits for the connector's
 * connections to close (up to the shutdown grace); a lane connection closes after the answer it
 * writes once the shutdown has begun.
 */
final class LaneConnectionFactory extends AbstractConnectionFactory {
  /** The protocol name this factory is found by in the connector. */
  static final String PROTOCOL = "lineup-lane";

  /**
   * The largest body the lane reads itself, in bytes (64 KiB: a publish of a few hundred small
   * jobs); a request with a larger one is handed to Jetty and served by the routes, up to the
   * server's body limit.
   */
  static final int MAX_BODY_BYTES = 64 * 1024;

  private final LaneConnection.Parts parts;

  /**
   * @param routes the lane's routes
   * @param gate what every request passes
   * @param http the connection factory a connection is handed to; the lane reads heads no longer
   *     than its request header limit and its input buffer
   */
  LaneConnectionFactory(List<LaneRoute> routes, RequestGate gate, HttpConnectionFactory http) {
    super(PROTOCOL);
    LaneRequestParser parser =
        new LaneRequestParser(
            routes,
            Math.min(http.getHttpConfiguration().getRequestHeaderSize(), http.getInputBufferSize()),
            MAX_BODY_BYTES);
    this.parts =
        new LaneConnection.Parts(gate, parser, http, new AtomicInteger(), new AtomicInteger());
  }

  @Override
  public Connection newConnection(Connector connector, EndPoint endPoint) {
    return configure(new LaneConnection(parts, connector, endPoint), connector, endPoint);
  }

  /** Lane requests being served now. */
  int inProgress() {
    return parts.serving().get();
  }

  /** Read buffers the lane connections hold now: those with bytes unread or a request served. */
  int buffersHeld() {
    return parts.buffersHeld().get();
  }
}
