package io.lineup.server;

import com.fasterxml.jackson.databind.JsonNode;
import io.lineup.core.QueueName;
import io.lineup.server.api.JobHandlers;
import io.lineup.server.api.PathNames;
import io.lineup.server.auth.Access;
import io.lineup.server.auth.Principal;
import io.lineup.server.http.ApiException;
import io.lineup.server.http.CoreAnswers;
import io.lineup.server.http.ErrorMapper;
import io.lineup.server.http.RequestBody;
import io.lineup.server.http.RequestIds;
import java.io.IOException;
import java.io.InputStream;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.http.HttpMethod;
import org.eclipse.jetty.io.Content;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;

/**
 * Serves the busiest route, {@code POST /v1/queues/{ns}/{queue}/jobs} without a query, on Jetty's
 * core API, and hands every other request to the servlet layer (Javalin's routes) inside it.
 *
 * <p>Why: a publish is small and the servlet layer's own work per request (its request and response
 * wrappers, the route matching, the before and after hooks) was most of the server's CPU per
 * publish. The answer is the same either way: the same {@link RequestGate} (request id, shutdown
 * refusal, token check, metrics and access log), the same body limit and parsing, the same {@link
 * JobHandlers#publish(QueueName, io.lineup.core.Durability, JsonNode, Principal) publish}, the same
 * error shape. A publish with a query ({@code durable_replicas}) or a path the servlet layer must
 * decode ({@code %}, {@code ;}) goes the servlet way.
 */
final class PublishLane extends Handler.Wrapper {
  private static final String PREFIX = "/v1/queues/";
  private static final String SUFFIX = "/jobs";

  private final JobHandlers jobs;
  private final Access access;
  private final String route;
  private final RequestGate gate;
  private final int maxBodyBytes;

  /**
   * @param jobs publishes
   * @param access who may publish (the route table's rule for this route)
   * @param route the route's path template, the metrics label
   * @param gate what every request passes
   * @param maxBodyBytes the request body limit, in bytes
   */
  PublishLane(JobHandlers jobs, Access access, String route, RequestGate gate, int maxBodyBytes) {
    this.jobs = jobs;
    this.access = access;
    this.route = route;
    this.gate = gate;
    this.maxBodyBytes = maxBodyBytes;
  }

  @Override
  public boolean handle(Request request, Response response, Callback callback) throws Exception {
    String path = request.getHttpURI().getPath();
    int slash = slashBetweenNames(path);
    if (slash < 0
        || request.getHttpURI().getQuery() != null
        || !HttpMethod.POST.is(request.getMethod())) {
      return super.handle(request, response, callback);
    }
    long start = System.nanoTime();
    String id = gate.open(request.getHeaders().get(RequestIds.HEADER));
    response.getHeaders().put(RequestIds.HEADER, id);
    // What Jetty answers when an Error escapes; set to the real status on every other way out.
    int status = 500;
    try {
      byte[] answer = publish(request, response, path, slash);
      status = 201;
      CoreAnswers.json(response, status, answer, callback);
    } catch (RuntimeException e) {
      ApiException api = ErrorMapper.toApiException(e);
      ErrorMapper.log(api, e, request.getMethod(), path);
      status = api.status();
      CoreAnswers.error(response, api, callback);
    } finally {
      gate.close(request.getMethod(), route, path, status, System.nanoTime() - start);
    }
    return true;
  }

  private byte[] publish(Request request, Response response, String path, int slash) {
    if (gate.refuses(path)) {
      response.getHeaders().put(HttpHeader.CONNECTION, "close");
      throw RequestGate.shuttingDown();
    }
    String ns = path.substring(PREFIX.length(), slash);
    Principal principal =
        gate.authorize(
            request.getHeaders().get(HttpHeader.AUTHORIZATION),
            access,
            () -> PathNames.namespace(ns));
    QueueName queue =
        PathNames.queue(
            PathNames.namespace(ns), path.substring(slash + 1, path.length() - SUFFIX.length()));
    JsonNode body;
    try (InputStream in = Content.Source.asInputStream(request)) {
      body =
          RequestBody.parse(
              RequestBody.bytes(request.getLength(), in, maxBodyBytes),
              true,
              JobHandlers.PAYLOAD_FIELD);
    } catch (IOException e) {
      throw RequestBody.unreadable(e);
    }
    return jobs.publish(queue, null, body, principal);
  }

  /**
   * Where the slash between {@code {ns}} and {@code {queue}} is when the path is {@code
   * /v1/queues/{ns}/{queue}/jobs} with both names plain (not empty, nothing to decode), else -1.
   */
  static int slashBetweenNames(String path) {
    if (path == null
        || !path.startsWith(PREFIX)
        || !path.endsWith(SUFFIX)
        || path.indexOf('%') >= 0
        || path.indexOf(';') >= 0) {
      return -1;
    }
    int end = path.length() - SUFFIX.length();
    int slash = path.indexOf('/', PREFIX.length());
    boolean twoNames =
        slash > PREFIX.length() && slash + 1 < end && path.indexOf('/', slash + 1) == end;
    return twoNames ? slash : -1;
  }
}
