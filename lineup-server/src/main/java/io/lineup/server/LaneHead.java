package io.lineup.server;

/**
 * The head of a request the {@link LaneConnection} serves, as {@link LaneRequestParser} read it.
 *
 * @param route the lane route its path matched
 * @param path the request's path
 * @param slash where the slash between the path's two names is
 * @param authorization the {@code Authorization} header, or null
 * @param requestId the {@code X-Request-Id} header, or null
 * @param close whether the client asked to close the connection after the answer
 * @param bodyStart where the body starts in the connection's buffer
 * @param bodyLength the body's length in bytes ({@code Content-Length})
 */
record LaneHead(
    LaneRoute route,
    String path,
    int slash,
    String authorization,
    String requestId,
    boolean close,
    int bodyStart,
    int bodyLength) {
  /** The path's first name, as it came. */
  String namespace() {
    return route.namespace(path, slash);
  }

  /** The path's second name (a queue, an endpoint), as it came. */
  String name() {
    return route.name(path, slash);
  }

  /** Where the body ends in the connection's buffer (exclusive). */
  int bodyEnd() {
    return bodyStart + bodyLength;
  }
}
