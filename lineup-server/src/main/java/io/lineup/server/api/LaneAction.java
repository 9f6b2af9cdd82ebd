package io.lineup.server.api;

import com.fasterxml.jackson.databind.JsonNode;
import io.lineup.server.auth.Principal;
import java.util.Map;

/**
 * What a busy {@code POST} route does when the server serves it on its core lane, ahead of the
 * servlet layer (for requests without a query whose path names are plain). It must answer exactly
 * as the route's {@link ApiHandler} does: the lane exists to save the servlet layer's work per
 * request, not to behave differently.
 */
@FunctionalInterface
public interface LaneAction {
  /**
   * Serves one request.
   *
   * @param ns the path's namespace, as it came (not yet checked as a name)
   * @param name the path's second name (a queue, an endpoint), as it came
   * @param body reads and parses the request body when called
   * @param principal who is calling, already allowed by the route's access rule
   * @return the answer to send
   * @throws RuntimeException an {@link io.lineup.server.http.ApiException} or an engine exception,
   *     answered as the routes answer them
   */
  Answer serve(String ns, String name, Body body, Principal principal);

  /** Reads the request body of a lane request. */
  @FunctionalInterface
  interface Body {
    /**
     * Reads and parses the body; an empty body is a 400.
     *
     * @param compactField a field kept as compact JSON text, or null for none
     * @throws io.lineup.server.http.ApiException 400 {@code invalid_json}, 413 {@code
     *     body_too_large}, as {@link io.lineup.server.http.RequestBody} answers them
     */
    JsonNode json(String compactField);

    /**
     * A request header's value (the first when repeated).
     *
     * @param name the header's name, in any case
     * @return its value, or null when absent
     */
    default String header(String name) {
      return null;
    }
  }

  /**
   * An answer of a lane action.
   *
   * @param status the HTTP status
   * @param json the JSON body
   * @param headers headers beyond those every answer has (an error's {@code Retry-After})
   */
  record Answer(int status, byte[] json, Map<String, String> headers) {
    /** An answer with no headers of its own. */
    public Answer(int status, byte[] json) {
      this(status, json, Map.of());
    }
  }
}
