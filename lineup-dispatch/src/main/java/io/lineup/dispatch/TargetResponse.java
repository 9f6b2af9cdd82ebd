package io.lineup.dispatch;

import java.util.List;
import java.util.SortedMap;

/**
 * A target's answer to one attempt, however it was sent.
 *
 * @param status the status code
 * @param headers the header values by name, names compared without case, values in the order
 *     received
 * @param body the body: all of it, or its first {@code limit + 1} bytes when it was longer than the
 *     limit the request was sent with
 */
record TargetResponse(int status, SortedMap<String, List<String>> headers, byte[] body) {
  /** The first value of a header, or null. */
  String first(String name) {
    List<String> values = headers.get(name);
    return values == null || values.isEmpty() ? null : values.get(0);
  }
}
