package io.lineup.core.internal.store;

import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Tells which of a script's top-level helper statements give the same values on every call, so that
 * a library ({@link FunctionLibrary}) runs them at its first call only, instead of at every call:
 * about 1 µs of Redis time a lease call for the settings' tables and the looked-up library
 * functions.
 *
 * <p>A statement holds constants when it cannot give another value and nothing can change what it
 * gave:
 *
 * <ul>
 *   <li>a value built only from literals and the functions of Lua's {@code string}, {@code math},
 *       {@code table} and Redis's {@code cmsgpack} ({@code string.byte}, {@code string.rep('\0',
 *       3)}: a function or a string, which nothing can change), whose names the script never
 *       assigns again; or
 *   <li>one table of literals ({@code {'a', 'b'}}, {@code {a = 1}}) that the script only reads: by
 *       an index ({@code T[k]}, never {@code T[k] = v}), its length, {@code unpack(T)}, {@code
 *       ipairs(T)} or {@code pairs(T)}, never handed to anything else that could change it.
 * </ul>
 *
 * Anything else (the queue's keys, the tables a call fills, anything the rules cannot read) runs at
 * every call. The rules read the script's text and err on that side: a name in a comment that looks
 * like a write keeps its statement per call.
 */
final class ConstantStatements {
  private static final Set<String> LIBRARIES = Set.of("string", "math", "table", "cmsgpack");
  private static final Pattern QUOTED =
      Pattern.compile("'(?:[^'\\\\\\n]|\\\\.)*'|\"(?:[^\"\\\\\\n]|\\\\.)*\"");
  private static final Pattern IDENTIFIER =
      Pattern.compile("(?<![\\w.:])[A-Za-z_][A-Za-z0-9_]*(?!\\w)");
  private static final Pattern TABLE_KEY = Pattern.compile("\\s*=(?!=)");
  private static final List<String> READERS = List.of("unpack(", "ipairs(", "pairs(", "#");

  private final String code;
  private final Set<String> reassigned;

  /**
   * Reads a script once, for the questions about each of its statements.
   *
   * @param script the whole script (helpers and body), where every use of the names is
   */
  ConstantStatements(String script) {
    this.code = code(script);
    this.reassigned = LuaConstants.reassignedNames(code);
  }

  /**
   * Whether the assignment {@code names = value}, a statement of this script, gives values that are
   * the same at every call.
   *
   * @param names the names the statement declares
   * @param assignment the statement as an assignment ({@code a, b = x, y}), possibly several lines
   */
  boolean holdsConstants(List<String> names, String assignment) {
    String value = code(assignment.substring(assignment.indexOf('=') + 1)).strip();
    if (value.startsWith("{")) {
      return names.size() == 1 && literalTable(value) && onlyRead(names.get(0), code);
    }
    if (value.isEmpty() || value.contains("{")) {
      return false;
    }
    Matcher id = IDENTIFIER.matcher(value);
    while (id.find()) {
      if (!LIBRARIES.contains(id.group())) {
        return false;
      }
    }
    return names.stream().noneMatch(reassigned::contains);
  }

  /** The text without its quoted strings' contents and its comments. */
  private static String code(String text) {
    StringBuilder out = new StringBuilder();
    for (String line : text.split("\n", -1)) {
      String bare = QUOTED.matcher(line).replaceAll("''");
      int comment = bare.indexOf("--");
      out.append(comment >= 0 ? bare.substring(0, comment) : bare).append('\n');
    }
    return out.toString();
  }

  /** One table constructor of literals: no call, no nested table, names only as keys. */
  private static boolean literalTable(String value) {
    if (!value.endsWith("}")
        || value.indexOf('{', 1) >= 0
        || value.indexOf('}') != value.length() - 1
        || value.contains("(")) {
      return false;
    }
    Matcher id = IDENTIFIER.matcher(value);
    while (id.find()) {
      if (!TABLE_KEY.matcher(value).region(id.end(), value.length()).lookingAt()) {
        return false;
      }
    }
    return true;
  }

  /** Whether every use of the table named {@code name}, but its declaration, only reads it. */
  private static boolean onlyRead(String name, String code) {
    Matcher use = Pattern.compile("(?<![\\w.:])" + Pattern.quote(name) + "(?!\\w)").matcher(code);
    while (use.find()) {
      int lineStart = code.lastIndexOf('\n', use.start()) + 1;
      String before = code.substring(lineStart, use.start());
      if (before.equals("local ")) {
        continue; // its declaration
      }
      String stripped = before.stripTrailing();
      if (READERS.stream().anyMatch(stripped::endsWith)) {
        continue;
      }
      if (!indexedRead(code, use.end())) {
        return false;
      }
    }
    return true;
  }

  /** Whether an index {@code [...]} starts at {@code at} and is not written to ({@code = v}). */
  private static boolean indexedRead(String code, int at) {
    if (at >= code.length() || code.charAt(at) != '[') {
      return false;
    }
    int depth = 0;
    for (int i = at; i < code.length(); i++) {
      char c = code.charAt(i);
      if (c == '[') {
        depth++;
      } else if (c == ']' && --depth == 0) {
        return !TABLE_KEY.matcher(code).region(i + 1, code.length()).lookingAt();
      }
    }
    return false;
  }
}
