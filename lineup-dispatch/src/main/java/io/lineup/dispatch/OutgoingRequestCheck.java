package io.lineup.dispatch;

import java.net.URI;
import java.util.Map;

/**
 * Checks each request right before Lineup sends it, whatever wrote the record it comes from: a
 * task's request against its endpoint, a callback against its namespace's settings. The same rules
 * hold at submit; checking again here means a record that reached a queue another way (an older
 * version, a hand-written job, an endpoint changed since) is never sent as it stands.
 */
final class OutgoingRequestCheck {
  private OutgoingRequestCheck() {}

  /** A request that may not be sent; the message says why (never a header's value). */
  static final class Refused extends IllegalArgumentException {
    Refused(String reason) {
      super(reason, null);
    }
  }

  /**
   * Checks a task's request as it will go out: its method among the endpoint's, its path and query
   * under the base URL after normalisation, its headers (and those Lineup adds from the record) by
   * {@link HeaderRules}, its body within the size limit.
   *
   * @param taskId the task's id (sent in {@code Lineup-Task-Id})
   * @param maxBodyBytes the largest body, in bytes
   * @return the URL to send it to
   * @throws Refused saying what is wrong
   */
  static URI task(EndpointSpec spec, TaskRequest request, String taskId, int maxBodyBytes) {
    String method = request.method();
    if (!HeaderRules.isToken(method) || !spec.methods().contains(method)) {
      throw new Refused(
          "method " + printable(method) + " is not among the endpoint's allowed methods");
    }
    URI uri;
    try {
      uri = TargetPaths.resolve(spec.baseUrl(), request.path());
    } catch (DispatchInputException badPath) {
      throw new Refused("path " + badPath.getMessage());
    }
    if (request.headers().size() > HeaderRules.MAX_HEADERS) {
      throw new Refused("more than " + HeaderRules.MAX_HEADERS + " headers");
    }
    for (Map.Entry<String, String> h : request.headers().entrySet()) {
      String problem = HeaderRules.taskHeaderProblem(h.getKey(), h.getValue());
      if (problem != null) {
        throw new Refused("header " + printable(h.getKey()) + " " + problem);
      }
    }
    if (request.contentType() != null) {
      checkAdded("Content-Type", request.contentType());
    }
    checkAdded("Idempotency-Key", request.idempotencyKey(taskId));
    checkAdded("Lineup-Task-Id", taskId);
    if (request.body().length > maxBodyBytes) {
      throw new Refused(
          "body of " + request.body().length + " bytes is over the limit of " + maxBodyBytes);
    }
    return uri;
  }

  /**
   * Checks a callback as it will go out: its URL by the namespace's settings (scheme, host, allowed
   * prefix, no dot-segment or encoding tricks), and its headers by {@link HeaderRules}.
   *
   * @return the URL to send it to
   * @throws Refused saying what is wrong
   */
  static URI callback(CallbackSettings settings, String url, Map<String, String> headers) {
    if (url == null) {
      throw new Refused("no callback URL");
    }
    try {
      settings.check(url);
    } catch (DispatchInputException refused) {
      throw new Refused("callback URL " + refused.getMessage());
    }
    for (Map.Entry<String, String> h : headers.entrySet()) {
      checkAdded(h.getKey(), h.getValue());
    }
    return URI.create(url);
  }

  /**
   * Checks a header Lineup adds to a request.
   *
   * @throws Refused saying what is wrong
   */
  static void checkAdded(String name, String value) {
    String problem = HeaderRules.nameProblem(name);
    if (problem == null) {
      problem = value == null ? "has no value" : HeaderRules.valueProblem(value);
    }
    if (problem != null) {
      throw new Refused("header " + printable(name) + " " + problem);
    }
  }

  /** A name for a message: control characters shown as {@code ?}, at most 64 characters. */
  private static String printable(String text) {
    if (text == null) {
      return "(none)";
    }
    StringBuilder out = new StringBuilder();
    for (int i = 0; i < text.length() && i < 64; i++) {
      char c = text.charAt(i);
      out.append(c < 0x20 || c >= 0x7f ? '?' : c);
    }
    return out.toString();
  }
}
