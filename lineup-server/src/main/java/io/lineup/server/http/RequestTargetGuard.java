package io.lineup.server.http;

import io.lineup.api.ErrorCode;
import org.eclipse.jetty.http.HttpMethod;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;

/**
 * The outermost handler: answers requests no route can serve before Jetty's servlet layer sees
 * them, in the API's JSON error shape with a request id. Those are {@code CONNECT} (this server is
 * not a proxy) and targets that are not a path ({@code *}, or {@code host:port}), which the servlet
 * layer would otherwise answer with an empty body.
 */
public final class RequestTargetGuard extends Handler.Wrapper {
  /**
   * @param handler the handler that serves every other request
   */
  public RequestTargetGuard(Handler handler) {
    super(handler);
  }

  @Override
  public boolean handle(Request request, Response response, Callback callback) throws Exception {
    String refusal = refusal(request);
    if (refusal == null) {
      return super.handle(request, response, callback);
    }
    response.getHeaders().put(RequestIds.HEADER, RequestIds.generate());
    CoreAnswers.error(response, new ApiException(ErrorCode.BAD_REQUEST, null, refusal), callback);
    return true;
  }

  /** Why the request cannot be served, or null when it can. */
  private static String refusal(Request request) {
    if (HttpMethod.CONNECT.is(request.getMethod())) {
      return "CONNECT is not supported: this server is not a proxy";
    }
    String path = request.getHttpURI().getPath();
    if (path == null || !path.startsWith("/")) {
      return "the request target must be a path such as /v1/queues";
    }
    return null;
  }
}
