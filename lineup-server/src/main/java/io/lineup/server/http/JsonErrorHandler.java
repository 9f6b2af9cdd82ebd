package io.lineup.server.http;

import io.lineup.api.ErrorCode;
import java.nio.ByteBuffer;
import org.eclipse.jetty.http.HttpField;
import org.eclipse.jetty.http.HttpFields;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.server.handler.ErrorHandler;
import org.eclipse.jetty.util.Callback;

/**
 * Jetty's error pages in the API's JSON error shape, for requests refused before they reach a route
 * (a malformed URI or header, headers over the size limit, an HTTP version it does not speak). Only
 * a status of 500 maps to {@code internal}; other refusals name what is wrong.
 */
public final class JsonErrorHandler extends ErrorHandler {
  /**
   * Every method gets a body: Jetty's default gives one only to GET, POST and HEAD, so a refused
   * {@code CONNECT} or {@code PUT} would answer an empty 400 without a request id.
   */
  @Override
  public boolean errorPageForMethod(String method) {
    return true;
  }

  @Override
  protected void generateResponse(
      Request request,
      Response response,
      int code,
      String message,
      Throwable cause,
      Callback callback) {
    // Jetty closes the connection after a malformed path (with or without its body) and after
    // any request whose body has not all arrived (CONNECT with a path, say).
    CoreAnswers.sayCloseUnlessKept(request, response);
    if (code == 400) {
      // A request Jetty refused before routing (an authority that is not the Host, an ambiguous
      // path) is the connection's last: whatever was sent after it is not read as a request.
      response.getHeaders().put(HttpHeader.CONNECTION, "close");
    }
    response.getHeaders().put(RequestIds.HEADER, RequestIds.generate());
    CoreAnswers.json(response, code, json(code, message), callback);
  }

  @Override
  public ByteBuffer badMessageError(int status, String reason, HttpFields.Mutable fields) {
    fields.put(new HttpField(HttpHeader.CONTENT_TYPE, "application/json"));
    fields.put(new HttpField(RequestIds.HEADER, RequestIds.generate()));
    return ByteBuffer.wrap(json(status, reason));
  }

  private static byte[] json(int status, String message) {
    ErrorCode code =
        switch (status) {
          case 404 -> ErrorCode.NOT_FOUND;
          case 405 -> ErrorCode.METHOD_NOT_ALLOWED;
          case 413 -> ErrorCode.BODY_TOO_LARGE;
          case 414, 431 -> ErrorCode.HEADERS_TOO_LARGE;
          case 503 -> ErrorCode.SHUTTING_DOWN;
          case 505 -> ErrorCode.HTTP_VERSION_NOT_SUPPORTED;
          case 500 -> ErrorCode.INTERNAL;
          default -> ErrorCode.BAD_REQUEST;
        };
    String reason = message == null || message.isBlank() ? "HTTP " + status : message;
    String text =
        code == ErrorCode.HTTP_VERSION_NOT_SUPPORTED
            ? "the request line must read METHOD /path HTTP/1.1 (" + reason + ")"
            : "the request was refused before routing (" + reason + ")";
    var body = Json.object();
    body.put("error", code.code());
    body.put("message", text);
    return Json.write(body);
  }
}
