package io.lineup.server.http;

import java.nio.ByteBuffer;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;

/**
 * JSON answers written on Jetty's core response, for the handlers that serve a request before the
 * servlet layer sees it. They send the same status, headers and body as the routes' answers.
 */
public final class CoreAnswers {
  private CoreAnswers() {}

  /**
   * Answers {@code status} with a JSON body and its length, as the last write of the response.
   *
   * @param callback completed when the answer is written, or failed when the client went away
   */
  public static void json(Response response, int status, byte[] json, Callback callback) {
    response.setStatus(status);
    response.getHeaders().put(HttpHeader.CONTENT_TYPE, "application/json");
    response.getHeaders().put(HttpHeader.CONTENT_LENGTH, json.length);
    response.write(true, ByteBuffer.wrap(json), callback);
  }

  /**
   * Answers an API error: its status, its headers and the JSON error shape. When some of the
   * request's body has not arrived yet, the answer says {@code Connection: close}.
   */
  public static void error(Response response, ApiException api, Callback callback) {
    // A refusal can come before the body was read (no token, a bad name or target). Jetty drops
    // what it cannot read of it only when the exchange ends, after this answer has left, and then
    // closes the connection without having said so: a client that kept the connection for its
    // next request would lose that request. Reading what has come now, without blocking, lets
    // Jetty mark the connection as closing before the answer's headers are written.
    response.getRequest().consumeAvailable();
    ErrorMapper.headers(api).forEach(response.getHeaders()::put);
    json(response, api.status(), Json.write(ErrorMapper.body(api)), callback);
  }
}
