package io.lineup.core.internal.store;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Writes a script as a Redis Functions library ({@code FUNCTION LOAD}, called by {@code FCALL}), so
 * that its helper functions are made once, when the library loads, instead of on every call.
 *
 * <p>Why: Redis runs an {@code EVALSHA} script's top level on every call, so each of its {@code
 * local function} helpers becomes a new closure each time, and Lua 5.1 finds every local a closure
 * captures by walking the upvalues made so far in the call. A lease spent about 9.5 µs of Redis
 * time on that per call, a publish about 3 µs, before doing any work.
 *
 * <p>The library is derived from the very text sent by {@code EVALSHA}, so both forms behave the
 * same:
 *
 * <ul>
 *   <li>The helpers' functions stand at the library's top level, made once.
 *   <li>The helpers' other top-level statements (the queue's keys from {@code KEYS}, the tables a
 *       call fills, looked-up library functions) are per-call state: their names are declared at
 *       the top level, so the functions capture them once, and the statements run again at the
 *       start of every call as assignments, so no call sees what an earlier one left there.
 *   <li>{@code KEYS} and {@code ARGV}, globals for a script, are top-level locals set from the
 *       function's arguments at the start of every call (a library may not make globals).
 *   <li>The script's own code is the body of the registered function, as it was.
 * </ul>
 *
 * <p>Redis runs one call at a time, so the state shared by the calls of one library is never seen
 * by two at once.
 */
final class FunctionLibrary {
  private static final Pattern DECLARATION =
      Pattern.compile(
          "^local\\s+([A-Za-z_][A-Za-z0-9_]*(?:\\s*,\\s*[A-Za-z_][A-Za-z0-9_]*)*)(.*)$");
  private static final Pattern NAME = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*");

  /** The start of every name the library adds; no helper may use it. */
  private static final String OWN = "lineup_lib_";

  /** Most names one Lua 5.1 function may capture (LUAI_MAXUPVALUES) is 60; stay well below. */
  private static final int NAMES_PER_BEGIN = 40;

  private FunctionLibrary() {}

  /**
   * The name of a script's library and of its one function: the script's name and the start of its
   * SHA-1, so a changed script is a new library that cannot be confused with the old one.
   */
  static String functionName(String scriptName, String sha1) {
    return "lineup_" + scriptName + "_" + sha1.substring(0, 12);
  }

  /**
   * A top-level statement of the helpers that is not a function: the names it declares and its text
   * as an assignment to them (several lines for a table spread over lines).
   */
  private record Statement(List<String> names, String text) {}

  /**
   * The library's text.
   *
   * @param name the library's and its function's name ({@link #functionName})
   * @param helpers the included helpers, constants already written in ({@link LuaConstants})
   * @param body the script's own code
   * @param allowOom whether the function may run while Redis is at its memory limit
   * @throws IllegalStateException when a helper declares a name twice or takes a name of the
   *     library's own, or a declaration cannot be read
   */
  static String of(String name, String helpers, String body, boolean allowOom) {
    List<String> functions = new ArrayList<>();
    List<Statement> statements = new ArrayList<>();
    Set<String> names = new LinkedHashSet<>();
    for (LuaChunk chunk : LuaChunk.split(helpers)) {
      if (chunk.function() != null) {
        if (chunk.function().startsWith(OWN)) {
          throw new IllegalStateException(
              "A helper of " + name + " takes the library's own name " + chunk.function());
        }
        functions.add(chunk.text());
        continue;
      }
      for (String line : chunk.text().split("\n")) {
        if (line.startsWith("local ")) {
          statements.add(declaration(name, line, names));
        } else if (!line.isBlank() && !line.startsWith("--")) {
          // The rest of a statement that began on an earlier line (a table spread over lines).
          Statement last = statements.isEmpty() ? null : statements.remove(statements.size() - 1);
          statements.add(
              last == null
                  ? new Statement(List.of(), line)
                  : new Statement(last.names(), last.text() + "\n" + line));
        }
      }
    }
    String script = helpers + body;
    ConstantStatements constants = new ConstantStatements(script);
    List<String> once = new ArrayList<>();
    List<String> everyCall = new ArrayList<>();
    for (Statement statement : statements) {
      boolean constant =
          !statement.names().isEmpty()
              && constants.holdsConstants(statement.names(), statement.text());
      (constant ? once : everyCall).add(statement.text());
    }
    StringBuilder out = new StringBuilder();
    out.append("#!lua name=").append(name).append('\n');
    out.append("local KEYS, ARGV, ").append(OWN).append("ready\n");
    for (String n : names) {
      out.append("local ").append(n).append('\n');
    }
    functions.forEach(out::append);
    List<String> onceBegins = beginFunctions(once, OWN + "once_", out);
    List<String> begins = beginFunctions(everyCall, OWN + "begin_", out);
    out.append("redis.register_function{function_name = '")
        .append(name)
        .append("', flags = {")
        .append(allowOom ? "'allow-oom'" : "")
        .append("}, callback = function(keys, args)\n");
    out.append("KEYS, ARGV = keys, args\n");
    if (!onceBegins.isEmpty()) {
      out.append("if not ").append(OWN).append("ready then\n");
      onceBegins.forEach(begin -> out.append(begin).append("()\n"));
      out.append(OWN).append("ready = true\n");
      out.append("end\n");
    }
    begins.forEach(begin -> out.append(begin).append("()\n"));
    out.append(body);
    if (!body.endsWith("\n")) {
      out.append('\n');
    }
    out.append("end}\n");
    return out.toString();
  }

  /** A {@code local} line: its names (recorded in {@code names}) and the line as an assignment. */
  private static Statement declaration(String library, String line, Set<String> names) {
    Matcher d = DECLARATION.matcher(line);
    if (!d.matches()) {
      throw new IllegalStateException("Unreadable declaration in " + library + ": " + line);
    }
    List<String> declared = List.of(d.group(1).split("\\s*,\\s*"));
    for (String n : declared) {
      if (!names.add(n)) {
        throw new IllegalStateException("A helper of " + library + " declares " + n + " twice");
      }
      if (n.startsWith(OWN)) {
        throw new IllegalStateException(
            "A helper of " + library + " takes the library's own name " + n);
      }
    }
    String rest = d.group(2).strip();
    if (!rest.startsWith("=")) {
      // A bare declaration: the name starts every call as nil.
      return new Statement(List.of(), String.join(", ", declared) + " = nil");
    }
    return new Statement(declared, String.join(", ", declared) + " " + rest);
  }

  /**
   * Writes the statements into functions named {@code prefix} and a number, each capturing at most
   * {@link #NAMES_PER_BEGIN} names, a statement never split; returns their names in the order to
   * call.
   */
  private static List<String> beginFunctions(List<String> state, String prefix, StringBuilder out) {
    List<String> begins = new ArrayList<>();
    List<List<String>> groups = new ArrayList<>();
    List<String> group = new ArrayList<>();
    Set<String> captured = new LinkedHashSet<>();
    for (String statement : state) {
      Set<String> mentioned = new LinkedHashSet<>();
      Matcher m = NAME.matcher(statement);
      while (m.find()) {
        mentioned.add(m.group());
      }
      Set<String> union = new LinkedHashSet<>(captured);
      union.addAll(mentioned);
      if (!group.isEmpty() && union.size() > NAMES_PER_BEGIN) {
        groups.add(group);
        group = new ArrayList<>();
        captured = new LinkedHashSet<>(mentioned);
      } else {
        captured = union;
      }
      group.add(statement);
    }
    if (!group.isEmpty()) {
      groups.add(group);
    }
    for (List<String> statements : groups) {
      String begin = prefix + (begins.size() + 1);
      begins.add(begin);
      out.append("local function ").append(begin).append("()\n");
      statements.forEach(s -> out.append(s).append('\n'));
      out.append("end\n");
    }
    return begins;
  }
}
