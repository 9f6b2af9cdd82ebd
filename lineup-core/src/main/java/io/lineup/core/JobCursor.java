package io.lineup.core;

import io.lineup.core.model.InvalidArgumentException;
import io.lineup.core.model.JobList;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.regex.Pattern;

/**
 * The opaque cursor of a list of jobs by state: the list, the order, and the score and id of the
 * last entry a page examined, in URL-safe base64. Keyset paging: the next page starts right after
 * that entry wherever it now stands, so entries added or removed meanwhile neither shift nor repeat
 * the entries that stayed.
 */
record JobCursor(JobList list, boolean descending, String score, String id) {
  private static final String VERSION = "1";
  private static final char SEPARATOR = '|';

  /** A score as Redis writes one: an integer or a decimal, maybe with an exponent. */
  private static final Pattern SCORE =
      Pattern.compile("-?[0-9]{1,20}(\\.[0-9]{1,20})?([eE][-+]?[0-9]{1,3})?");

  /** The cursor as text. */
  String encode() {
    String plain =
        VERSION
            + SEPARATOR
            + list.wireName()
            + SEPARATOR
            + (descending ? "d" : "a")
            + SEPARATOR
            + score
            + SEPARATOR
            + id;
    return Base64.getUrlEncoder()
        .withoutPadding()
        .encodeToString(plain.getBytes(StandardCharsets.UTF_8));
  }

  /**
   * The cursor of a text, checked against the list and order it is used with.
   *
   * @throws InvalidArgumentException naming {@code cursor} when the text is not a cursor, or one of
   *     another list or order
   */
  static JobCursor decode(String text, JobList list, boolean descending) {
    String plain;
    try {
      plain = new String(Base64.getUrlDecoder().decode(text), StandardCharsets.UTF_8);
    } catch (IllegalArgumentException e) {
      throw bad("is not a cursor this server gave");
    }
    String[] parts = plain.split("\\|", 5);
    if (parts.length != 5 || !VERSION.equals(parts[0]) || !SCORE.matcher(parts[3]).matches()) {
      throw bad("is not a cursor this server gave");
    }
    if (!parts[1].equals(list.wireName()) || !parts[2].equals(descending ? "d" : "a")) {
      throw bad(
          "was given for another list or order (state "
              + parts[1]
              + ", order "
              + ("d".equals(parts[2]) ? "desc" : "asc")
              + ")");
    }
    try {
      Checks.id(parts[4]);
    } catch (InvalidArgumentException e) {
      throw bad("is not a cursor this server gave");
    }
    return new JobCursor(list, descending, parts[3], parts[4]);
  }

  private static InvalidArgumentException bad(String why) {
    return new InvalidArgumentException("cursor", why);
  }
}
