package io.lineup.dispatch;

import java.net.URI;
import java.net.URISyntaxException;
import java.util.Locale;

/**
 * Joins a task's path to its endpoint's base URL so that the result can only be under that base: no
 * other scheme, host or port, no dot segments, no encoded dots, slashes or backslashes.
 */
public final class TargetPaths {
  /** Longest path and query of a task, in characters. */
  public static final int MAX_PATH_LENGTH = 4096;

  private TargetPaths() {}

  /**
   * The full URL a task reaches.
   *
   * @param base the endpoint's base URL (checked by {@link EndpointSpec})
   * @param pathAndQuery the task's path, starting with {@code /}, with an optional query; empty
   *     means the base itself
   * @throws DispatchInputException 400 naming {@code path} when it could leave the base
   */
  public static URI resolve(URI base, String pathAndQuery) {
    String text = pathAndQuery == null ? "" : pathAndQuery;
    if (text.length() > MAX_PATH_LENGTH) {
      throw DispatchInputException.invalidField(
          "path", "must be at most " + MAX_PATH_LENGTH + " characters");
    }
    if (!text.isEmpty() && !text.startsWith("/") && !text.startsWith("?")) {
      throw DispatchInputException.invalidField(
          "path", "must start with / (a path under the endpoint's base URL), not a URL or host");
    }
    if (text.startsWith("//")) {
      throw DispatchInputException.invalidField("path", "must not start with // (another host)");
    }
    int q = text.indexOf('?');
    String path = q < 0 ? text : text.substring(0, q);
    if (text.indexOf('#') >= 0) {
      throw DispatchInputException.invalidField("path", "must not hold a fragment (#)");
    }
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      if (c <= 0x20 || c == 0x7f || c == '\\' || c > 0x7e) {
        throw DispatchInputException.invalidField(
            "path", "must be printable ASCII without spaces or backslashes; percent-encode others");
      }
    }
    if (hasDotSegmentOrEncodedTrick(path)) {
      throw DispatchInputException.invalidField(
          "path",
          "must not hold dot segments (., .., also as ..; or .;x), empty segments (//),"
              + " backslashes, or encoded dots, slashes or backslashes");
    }
    URI joined;
    try {
      joined = new URI(base.toString() + text);
    } catch (URISyntaxException e) {
      throw DispatchInputException.invalidField("path", "is not a valid path: " + e.getReason());
    }
    // Belt and braces: whatever the checks above missed, the joined URL must still be under base.
    String basePath = base.getRawPath() == null ? "" : base.getRawPath();
    String joinedPath = joined.getRawPath() == null ? "" : joined.getRawPath();
    if (!base.getScheme().equals(joined.getScheme())
        || !base.getRawAuthority().equals(joined.getRawAuthority())
        || !joinedPath.startsWith(basePath)
        || !joined.normalize().equals(joined)) {
      throw DispatchInputException.invalidField("path", "must stay under the endpoint's base URL");
    }
    return joined;
  }

  /**
   * Whether a raw path holds a trick that a server could read as leaving its place: a dot segment
   * ({@code .} or {@code ..}, also with parameters as in {@code ..;} or {@code .;x}, which Tomcat
   * and Spring read as {@code ..}), an encoded dot, slash or backslash in any case and also encoded
   * twice ({@code %2e}, {@code %252e}), a backslash, or an empty segment ({@code //}).
   */
  static boolean hasDotSegmentOrEncodedTrick(String rawPath) {
    String lower = rawPath.toLowerCase(Locale.ROOT);
    if (lower.contains("\\") || lower.contains("//")) {
      return true;
    }
    // Encoded once or more: %252e is %2e to a server that decodes twice.
    String decodedPercents = lower;
    while (decodedPercents.contains("%25")) {
      decodedPercents = decodedPercents.replace("%25", "%");
    }
    if (decodedPercents.contains("%2e")
        || decodedPercents.contains("%2f")
        || decodedPercents.contains("%5c")) {
      return true;
    }
    for (String segment : rawPath.split("/", -1)) {
      int semicolon = segment.indexOf(';');
      String name = semicolon < 0 ? segment : segment.substring(0, semicolon);
      if (name.equals(".") || name.equals("..")) {
        return true;
      }
    }
    return false;
  }
}
