package io.lineup.archive;

import java.nio.charset.StandardCharsets;
import java.util.Base64;

/**
 * Where a listing page stopped: the last row's end time, queue and id, as opaque base64url text.
 * The next page starts strictly after it, so rows added meanwhile never shift a page.
 */
record ArchiveCursor(long finishedMs, String queue, String id) {
  private static final char SEPARATOR = '\n';

  String encode() {
    String text = finishedMs + "" + SEPARATOR + queue + SEPARATOR + id;
    return Base64.getUrlEncoder()
        .withoutPadding()
        .encodeToString(text.getBytes(StandardCharsets.UTF_8));
  }

  /**
   * @throws IllegalArgumentException when the text is not a cursor this class made
   */
  static ArchiveCursor decode(String cursor) {
    try {
      String text = new String(Base64.getUrlDecoder().decode(cursor), StandardCharsets.UTF_8);
      int first = text.indexOf(SEPARATOR);
      int second = text.indexOf(SEPARATOR, first + 1);
      if (first < 0 || second < 0) {
        throw new IllegalArgumentException("not a cursor of this listing");
      }
      return new ArchiveCursor(
          Long.parseLong(text.substring(0, first)),
          text.substring(first + 1, second),
          text.substring(second + 1));
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("not a cursor of this listing", e);
    }
  }
}
