package io.lineup.server.http;

import java.nio.ByteBuffer;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;

/**
 * JSON answers written on Jetty's core response, for the handlers that serve a request before the
 * servlet layer sees it. They send the same status, headers and body as the routes' answers.
 */
public final class CoreAnswers {
  private CoreAnswers() {}

  /**
   * For an answer written before the request's body was read (a refusal): reads what has arrived of
   * the body, without blocking, and puts {@code Connection: close} on the answer when Jetty will
   * not keep the connection after it, because some of the body is still on its way or because Jetty
   * closes after this kind of refusal (a malformed path). Call before the answer is committed.
   */
  public static void sayCloseUnlessKept(Request request, Response response) {
    // Jetty gives up on an unread body only when the exchange ends, after the answer has left, and
    // on some paths (an error page, the core lane) it then closes the connection without having
    // said so: a keep-alive client would send its next request on it and lose that request.
    // Reading now lets Jetty decide before the answer's headers are written.
    request.consumeAvailable();
    if (!request.getConnectionMetaData().isPersistent()) {
      response.getHeaders().put(HttpHeader.CONNECTION, "close");
    }
  }

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
    sayCloseUnlessKept(response.getRequest(), response);
    ErrorMapper.headers(api).forEach(response.getHeaders()::put);
    json(response, api.status(), Json.write(ErrorMapper.body(api)), callback);
  }
}
