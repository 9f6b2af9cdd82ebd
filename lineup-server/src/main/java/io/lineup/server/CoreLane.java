package io.lineup.server;

import com.fasterxml.jackson.databind.JsonNode;
import io.lineup.server.api.LaneAction;
import io.lineup.server.api.PathNames;
import io.lineup.server.auth.Principal;
import io.lineup.server.http.ApiException;
import io.lineup.server.http.ApiHeaders;
import io.lineup.server.http.CoreAnswers;
import io.lineup.server.http.ErrorMapper;
import io.lineup.server.http.RequestBody;
import io.lineup.server.http.RequestIds;
import java.io.IOException;
import java.io.InputStream;
import java.util.List;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.http.HttpMethod;
import org.eclipse.jetty.io.Content;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;

/**
 * Serves the busiest routes ({@link LaneRoute}s: the publish {@code POST
 * /v1/queues/{ns}/{queue}/jobs} and the task submit {@code POST
 * /v1/endpoints/{ns}/{endpoint}/tasks}) on Jetty's core API when they come without a query, and
 * hands every other request to the servlet layer (Javalin's routes) inside it.
 *
 * <p>Why: these requests are small and the servlet layer's own work per request (its request and
 * response wrappers, the route matching, the before and after hooks) was a fifth of the server's
 * CPU per publish and about a sixth per dispatched task. The answer is the same either way: the
 * same {@link RequestGate} (request id, shutdown refusal, token check, metrics and access log), the
 * same body limit and parsing, the same handler behind the route, the same error shape. A request
 * with a query (a publish's {@code durable_replicas}) or a path the servlet layer must decode
 * ({@code %}, {@code ;}) goes the servlet way.
 *
 * <p>Jetty's HTTP/1.1 parser has read the request either way (there is no other): what reaches here
 * has passed its strict compliance checks, and its body is framed as Jetty framed it.
 */
final class CoreLane extends Handler.Wrapper {
  private final List<LaneRoute> routes;
  private final RequestGate gate;
  private final int maxBodyBytes;

  /**
   * @param routes the routes served here; a path matches at most one of them
   * @param gate what every request passes
   * @param maxBodyBytes the request body limit, in bytes
   */
  CoreLane(List<LaneRoute> routes, RequestGate gate, int maxBodyBytes) {
    this.routes = List.copyOf(routes);
    this.gate = gate;
    this.maxBodyBytes = maxBodyBytes;
  }

  @Override
  public boolean handle(Request request, Response response, Callback callback) throws Exception {
    if (!HttpMethod.POST.is(request.getMethod()) || request.getHttpURI().getQuery() != null) {
      return super.handle(request, response, callback);
    }
    String path = request.getHttpURI().getPath();
    for (LaneRoute route : routes) {
      int slash = route.slashBetweenNames(path);
      if (slash >= 0) {
        serve(route, request, response, callback, path, slash);
        return true;
      }
    }
    return super.handle(request, response, callback);
  }

  private void serve(
      LaneRoute route,
      Request request,
      Response response,
      Callback callback,
      String path,
      int slash) {
    long start = System.nanoTime();
    String id = gate.open(request.getHeaders().get(RequestIds.HEADER));
    response.getHeaders().put(RequestIds.HEADER, id);
    // The lane serves /v1 routes only.
    ApiHeaders.put(response.getHeaders()::put);
    // What Jetty answers when an Error escapes; set to the real status on every other way out.
    int status = 500;
    try {
      LaneAction.Answer answer = answer(route, request, response, path, slash);
      status = answer.status();
      answer.headers().forEach(response.getHeaders()::put);
      if (gate.refuses(path)) {
        // The shutdown began while it was served: the last answer on this connection, so that
        // the graceful stop, which waits for connections to close, need not wait any longer.
        response.getHeaders().put(HttpHeader.CONNECTION, "close");
      }
      CoreAnswers.json(response, status, answer.json(), callback);
    } catch (RuntimeException e) {
      ApiException api = ErrorMapper.toApiException(e);
      ErrorMapper.log(api, e, request.getMethod(), path);
      status = api.status();
      CoreAnswers.error(response, api, callback);
    } finally {
      gate.close(request.getMethod(), route.template(), path, status, System.nanoTime() - start);
    }
  }

  private LaneAction.Answer answer(
      LaneRoute route, Request request, Response response, String path, int slash) {
    if (gate.refuses(path)) {
      response.getHeaders().put(HttpHeader.CONNECTION, "close");
      throw RequestGate.shuttingDown();
    }
    String ns = route.namespace(path, slash);
    Principal principal =
        gate.authorize(
            request.getHeaders().get(HttpHeader.AUTHORIZATION),
            route.access(),
            () -> PathNames.namespace(ns));
    String name = route.name(path, slash);
    LaneAction.Body body =
        new LaneAction.Body() {
          @Override
          public JsonNode json(String compactField) {
            return body(request, compactField);
          }

          @Override
          public String header(String headerName) {
            return request.getHeaders().get(headerName);
          }
        };
    return route.action().serve(ns, name, body, principal);
  }

  private JsonNode body(Request request, String compactField) {
    try (InputStream in = Content.Source.asInputStream(request)) {
      return RequestBody.parse(
          RequestBody.bytes(request.getLength(), in, maxBodyBytes), true, compactField);
    } catch (IOException e) {
      throw RequestBody.unreadable(e);
    }
  }
}
