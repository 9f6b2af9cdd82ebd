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

  /** Answers an API error: its status, its headers and the JSON error shape. */
  public static void error(Response response, ApiException api, Callback callback) {
    ErrorMapper.headers(api).forEach(response.getHeaders()::put);
    json(response, api.status(), Json.write(ErrorMapper.body(api)), callback);
  }
}
