package io.lineup.core.internal.store;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A top-level piece of a Lua helper's text: a {@code local function} with the comments above it
 * (named), or one other line with the comments above it (no name). The loader keeps the functions a
 * script uses ({@link ScriptLibrary}); a library sets the other lines apart as per-call state
 * ({@link FunctionLibrary}).
 *
 * @param function the function's name, or null for another line
 * @param text the piece's lines, each ending with a newline
 */
record LuaChunk(String function, String text) {
  private static final Pattern FUNCTION_START =
      Pattern.compile("local function ([A-Za-z_][A-Za-z0-9_]*)\\(");

  /**
   * Splits a helper's text into its pieces, in order. A function starts at a line {@code local
   * function name(} and ends at the first line that is {@code end} alone.
   *
   * @throws IllegalStateException when a function has no such end
   */
  static List<LuaChunk> split(String text) {
    List<LuaChunk> chunks = new ArrayList<>();
    StringBuilder pending = new StringBuilder();
    String function = null;
    for (String line : text.split("\n", -1)) {
      if (function == null) {
        Matcher start = FUNCTION_START.matcher(line);
        if (start.lookingAt()) {
          function = start.group(1);
          pending.append(line).append('\n');
        } else if (line.startsWith("--") || line.isBlank()) {
          pending.append(line).append('\n');
        } else {
          chunks.add(new LuaChunk(null, pending + line + "\n"));
          pending.setLength(0);
        }
      } else {
        pending.append(line).append('\n');
        if (line.equals("end")) {
          chunks.add(new LuaChunk(function, pending.toString()));
          pending.setLength(0);
          function = null;
        }
      }
    }
    if (function != null) {
      throw new IllegalStateException(
          "Unterminated function " + function + " (a top-level 'end' must close it)");
    }
    return chunks;
  }
}
