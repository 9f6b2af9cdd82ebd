package io.lineup.core.internal.store;

import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Writes a script's whole-number constants into the code that uses them, in place of the locals
 * that held them: {@code job[F_STATE]} becomes {@code job[(5)]}.
 *
 * <p>Why: Redis runs a script's top level on every call, so every helper function is made anew each
 * time, and each local it refers to from outside is an upvalue that Lua 5.1 finds by walking the
 * list of upvalues made so far in that call. The constants (field positions, states, codes) are
 * declared first and used by nearly every helper, so each was found at the far end of a long list:
 * a lease call spent about 18 µs of Redis time making its helpers before leasing anything. As
 * literals they are no upvalues at all, and reading one in a loop is one instruction fewer.
 *
 * <p>What counts as a constant: a top-level line {@code local NAME[, NAME...] = INTEGER[,
 * INTEGER...]} (names in capitals, an optional comment after it) whose names are declared nowhere
 * else in the script and never assigned again. Its line is left empty, so line numbers in Redis's
 * error messages still match the script. Names inside strings and comments, and after a {@code .}
 * or {@code :} (table fields), are left alone. Each literal is written in parentheses, so that
 * {@code X..y} cannot become the malformed number {@code 1..y} nor {@code a -X} the comment {@code
 * a --1}; Lua folds a parenthesised constant as it folds a bare one.
 */
final class LuaConstants {
  private static final Pattern DECLARATION =
      Pattern.compile(
          "^local ([A-Z][A-Z0-9_]*(?:\\s*,\\s*[A-Z][A-Z0-9_]*)*)\\s*=\\s*"
              + "(-?[0-9]+(?:\\s*,\\s*-?[0-9]+)*)\\s*(?:--.*)?$");

  /** What follows a name that is assigned: {@code =}, maybe after more names. */
  private static final Pattern ASSIGNED = Pattern.compile("\\s*(?:,[^=\\n]*)?=(?!=)");

  private LuaConstants() {}

  /** The script with its constants written in place; the script itself when it has none. */
  static String inline(String source) {
    String[] lines = source.split("\n", -1);
    Map<Integer, List<String>> declaredOn = new HashMap<>(); // line -> the names it declares
    Map<String, String> values = new HashMap<>();
    Map<String, Integer> declarations = new HashMap<>();
    for (int i = 0; i < lines.length; i++) {
      Matcher d = DECLARATION.matcher(lines[i]);
      if (!d.matches()) {
        continue;
      }
      String[] names = d.group(1).split("\\s*,\\s*");
      String[] numbers = d.group(2).split("\\s*,\\s*");
      if (names.length != numbers.length) {
        continue;
      }
      declaredOn.put(i, List.of(names));
      for (int k = 0; k < names.length; k++) {
        values.put(names[k], numbers[k]);
        declarations.merge(names[k], 1, Integer::sum);
      }
    }
    // A name declared twice (shadowed) or assigned after its declaration stays a local, and so do
    // the names declared beside it: a line declares its names together, so it stays whole.
    Set<String> reassigned = declaredOn.isEmpty() ? Set.of() : reassignedNames(source);
    for (List<String> names : declaredOn.values()) {
      if (names.stream()
          .anyMatch(name -> declarations.get(name) > 1 || reassigned.contains(name))) {
        names.forEach(values::remove);
      }
    }
    if (values.isEmpty()) {
      return source;
    }
    StringBuilder kept = new StringBuilder();
    for (int i = 0; i < lines.length; i++) {
      List<String> names = declaredOn.get(i);
      // An inlined declaration goes; its line stays, empty, so line numbers still match.
      kept.append(names != null && values.containsKey(names.get(0)) ? "" : lines[i]);
      if (i < lines.length - 1) {
        kept.append('\n');
      }
    }
    return replaceNames(kept.toString(), values);
  }

  /**
   * The names assigned anywhere but in a {@code local} declaration: on a line that does not start
   * with {@code local }, a name before the line's first {@code -}, not after a {@code .} or {@code
   * :}, followed by {@code =} (not {@code ==}), maybe after more names ({@code a, b = ...}).
   *
   * <p>One pass over the text for all names: a pattern per name, each scanning the whole text, made
   * most of the engine's start-up time (about 1.8 s of CPU for its scripts).
   */
  static Set<String> reassignedNames(String source) {
    Set<String> names = new HashSet<>();
    int lineStart = 0;
    while (lineStart <= source.length()) {
      int lineEnd = source.indexOf('\n', lineStart);
      if (lineEnd < 0) {
        lineEnd = source.length();
      }
      if (!source.startsWith("local ", lineStart)) {
        int end = lineStart;
        while (end < lineEnd && source.charAt(end) != '-') {
          end++;
        }
        int i = lineStart;
        while (i < end) {
          if (!isWordChar(source.charAt(i))) {
            i++;
            continue;
          }
          int wordEnd = i;
          while (wordEnd < end && isWordChar(source.charAt(wordEnd))) {
            wordEnd++;
          }
          char before = i > 0 ? source.charAt(i - 1) : '\n';
          if (before != '.'
              && before != ':'
              && ASSIGNED.matcher(source).region(wordEnd, source.length()).lookingAt()) {
            names.add(source.substring(i, wordEnd));
          }
          i = wordEnd;
        }
      }
      lineStart = lineEnd + 1;
    }
    return names;
  }

  /** A letter, digit or underscore: what a regular expression's {@code \w} matches. */
  private static boolean isWordChar(char c) {
    return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_';
  }

  /**
   * Replaces the names in code, outside strings and comments and after no {@code .} or {@code :}.
   */
  private static String replaceNames(String code, Map<String, String> values) {
    StringBuilder out = new StringBuilder(code.length());
    int i = 0;
    int n = code.length();
    while (i < n) {
      char c = code.charAt(i);
      int longOpen = longBracketLevel(code, c == '-' && code.startsWith("--", i) ? i + 2 : i);
      if (c == '-' && code.startsWith("--", i)) {
        int end = longOpen >= 0 ? longBracketEnd(code, i + 2, longOpen) : lineEnd(code, i);
        out.append(code, i, end);
        i = end;
      } else if (c == '[' && longOpen >= 0) {
        int end = longBracketEnd(code, i, longOpen);
        out.append(code, i, end);
        i = end;
      } else if (c == '\'' || c == '"') {
        int end = quotedEnd(code, i);
        out.append(code, i, end);
        i = end;
      } else if (Character.isDigit(c)) {
        int end = i;
        while (end < n
            && (Character.isLetterOrDigit(code.charAt(end))
                || code.charAt(end) == '.' && !code.startsWith("..", end))) {
          end++;
        }
        out.append(code, i, end);
        i = end;
      } else if (Character.isLetter(c) || c == '_') {
        int end = i;
        while (end < n
            && (Character.isLetterOrDigit(code.charAt(end)) || code.charAt(end) == '_')) {
          end++;
        }
        String word = code.substring(i, end);
        String value = values.get(word);
        if (value != null && !afterFieldAccess(code, i)) {
          out.append('(').append(value).append(')');
        } else {
          out.append(word);
        }
        i = end;
      } else {
        out.append(c);
        i++;
      }
    }
    return out.toString();
  }

  /** Whether the code before position i (spaces skipped) is a {@code .} or {@code :} of a field. */
  private static boolean afterFieldAccess(String code, int i) {
    int j = i - 1;
    while (j >= 0 && (code.charAt(j) == ' ' || code.charAt(j) == '\t')) {
      j--;
    }
    if (j < 0) {
      return false;
    }
    char before = code.charAt(j);
    return (before == '.' && (j == 0 || code.charAt(j - 1) != '.')) || before == ':';
  }

  /** The level of a long bracket {@code [==[} opening at i, or -1 when none opens there. */
  private static int longBracketLevel(String code, int i) {
    if (i >= code.length() || code.charAt(i) != '[') {
      return -1;
    }
    int j = i + 1;
    while (j < code.length() && code.charAt(j) == '=') {
      j++;
    }
    return j < code.length() && code.charAt(j) == '[' ? j - i - 1 : -1;
  }

  /** Where the long bracket opening at i with this level ends (after its closing bracket). */
  private static int longBracketEnd(String code, int i, int level) {
    String close = "]" + "=".repeat(level) + "]";
    int end = code.indexOf(close, i + level + 2);
    return end < 0 ? code.length() : end + close.length();
  }

  private static int lineEnd(String code, int i) {
    int end = code.indexOf('\n', i);
    return end < 0 ? code.length() : end;
  }

  /** Where the quoted string starting at i ends (after its closing quote). */
  private static int quotedEnd(String code, int i) {
    char quote = code.charAt(i);
    int j = i + 1;
    while (j < code.length()) {
      char c = code.charAt(j);
      if (c == '\\') {
        j += 2;
      } else if (c == quote || c == '\n') {
        return j + 1;
      } else {
        j++;
      }
    }
    return code.length();
  }
}
