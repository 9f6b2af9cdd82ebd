package io.lineup.server.api;

import io.lineup.server.http.ApiException;
import java.nio.charset.StandardCharsets;
import java.util.Base64;

/**
 * Where a page of a time-ordered set ends (the leased jobs by lease deadline, the finished ones by
 * finish time), for the next page: the last entry's time and id, written as one opaque base64url
 * text ({@code <time ms>:<id>}).
 *
 * @param deadlineMs the last entry's time (a lease deadline or a finish time), epoch ms
 * @param id the last entry's job id
 */
record LeaseCursor(long deadlineMs, String id) {
  /** The cursor as the API writes it. */
  String encode() {
    return Base64.getUrlEncoder()
        .withoutPadding()
        .encodeToString((deadlineMs + ":" + id).getBytes(StandardCharsets.UTF_8));
  }

  /**
   * A cursor as a request gives it, or null for none.
   *
   * @throws ApiException 400 {@code invalid_field} naming {@code cursor} when it is not one this
   *     server wrote
   */
  static LeaseCursor decode(String text) {
    if (text == null || text.isEmpty()) {
      return null;
    }
    try {
      String plain = new String(Base64.getUrlDecoder().decode(text), StandardCharsets.UTF_8);
      int colon = plain.indexOf(':');
      String id = plain.substring(colon + 1);
      if (colon < 1 || !PathNames.isJobId(id)) {
        throw new IllegalArgumentException(plain);
      }
      return new LeaseCursor(Long.parseLong(plain.substring(0, colon)), id);
    } catch (IllegalArgumentException | IndexOutOfBoundsException e) {
      throw ApiException.invalidField(
          "cursor", "is not a cursor of this list: give the next_cursor of the previous page");
    }
  }
}
