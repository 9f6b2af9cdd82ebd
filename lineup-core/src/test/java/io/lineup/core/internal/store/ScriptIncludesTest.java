package io.lineup.core.internal.store;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * Each script and helper includes exactly the helpers whose names it uses itself (helpers include
 * their own), and each script's header names the queue keys it touches.
 */
class ScriptIncludesTest {
  private static final List<String> HELPERS =
      List.of(
          "keys",
          "codes",
          "clock",
          "job",
          "settings",
          "events",
          "line",
          "state",
          "archive",
          "finish",
          "retry",
          "expire",
          "service",
          "ack",
          "due_watch",
          "make",
          "schedule",
          "score",
          "fair",
          "respawn",
          "adaptive");
  private static final Pattern INCLUDE = Pattern.compile("^--#include (\\S+)", Pattern.MULTILINE);
  private static final Pattern FUNCTION =
      Pattern.compile("^local function (\\w+)", Pattern.MULTILINE);
  private static final Pattern TOP_LOCALS =
      Pattern.compile("^local ([\\w, ]+?)\\s*=", Pattern.MULTILINE);
  private static final Pattern WORD = Pattern.compile("\\b[A-Za-z_]\\w*\\b");
  private static final Pattern KEY_LOCAL = Pattern.compile("\\bK_([A-Z]+)\\b");

  private static String code(String text) {
    StringBuilder out = new StringBuilder();
    for (String line : text.split("\n")) {
      int comment = line.indexOf("--");
      out.append(comment >= 0 ? line.substring(0, comment) : line).append('\n');
    }
    return out.toString();
  }

  /** The names each helper defines at its top level. */
  private static Map<String, Set<String>> definitions() {
    Map<String, Set<String>> defined = new LinkedHashMap<>();
    for (String helper : HELPERS) {
      String text = code(ScriptLibrary.raw("lib/" + helper + ".lua"));
      Set<String> names = new HashSet<>();
      Matcher f = FUNCTION.matcher(text);
      while (f.find()) {
        names.add(f.group(1));
      }
      Matcher l = TOP_LOCALS.matcher(text);
      while (l.find()) {
        Arrays.stream(l.group(1).split(",")).map(String::trim).forEach(names::add);
      }
      defined.put("lib/" + helper + ".lua", names);
    }
    return defined;
  }

  private static Set<String> includes(String file) {
    Set<String> included = new TreeSet<>();
    Matcher m = INCLUDE.matcher(ScriptLibrary.raw(file));
    while (m.find()) {
      included.add(m.group(1));
    }
    return included;
  }

  private static Set<String> helpersUsed(String file, Map<String, Set<String>> defined) {
    Set<String> words = new HashSet<>();
    Matcher w = WORD.matcher(code(ScriptLibrary.raw(file)));
    while (w.find()) {
      words.add(w.group());
    }
    Set<String> used = new TreeSet<>();
    defined.forEach((helper, names) -> {
      if (!helper.equals(file) && names.stream().anyMatch(words::contains)) {
        used.add(helper);
      }
    });
    return used;
  }

  @Test
  void everyFileIncludesExactlyTheHelpersItUsesItself() {
    Map<String, Set<String>> defined = definitions();
    List<String> files = new ArrayList<>(defined.keySet());
    ScriptLibrary.NAMES.forEach(name -> files.add(name + ".lua"));
    List<String> problems = new ArrayList<>();
    for (String file : files) {
      Set<String> used = helpersUsed(file, defined);
      Set<String> included = includes(file);
      if (!used.equals(included)) {
        problems.add(file + " uses " + used + " but includes " + included);
      }
    }
    assertThat(problems).isEmpty();
  }

  @Test
  void theHelpersIncludeEachOtherWithoutACycle() {
    Map<String, Set<String>> graph = new LinkedHashMap<>();
    HELPERS.forEach(h -> graph.put("lib/" + h + ".lua", includes("lib/" + h + ".lua")));
    Set<String> done = new HashSet<>();
    for (String helper : graph.keySet()) {
      assertThat(cycleFrom(helper, graph, new ArrayList<>(), done)).as(helper).isNull();
    }
    // Every script loads, which resolves every include chain.
    ScriptLibrary.NAMES.forEach(ScriptLibrary::load);
  }

  private static String cycleFrom(
      String node, Map<String, Set<String>> graph, List<String> path, Set<String> done) {
    if (path.contains(node)) {
      return String.join(" -> ", path) + " -> " + node;
    }
    if (done.contains(node)) {
      return null;
    }
    path.add(node);
    for (String next : graph.getOrDefault(node, Set.of())) {
      String cycle = cycleFrom(next, graph, path, done);
      if (cycle != null) {
        return cycle;
      }
    }
    path.remove(path.size() - 1);
    done.add(node);
    return null;
  }

  @Test
  void everyScriptHeaderNamesTheQueueKeysItTouches() {
    List<String> problems = new ArrayList<>();
    for (String name : ScriptLibrary.NAMES) {
      Set<String> touched = new TreeSet<>();
      for (String line : ScriptLibrary.load(name).source().split("\n")) {
        if (line.startsWith("local K_")) {
          continue; // the bindings of lib/keys.lua, kept whole
        }
        Matcher k = KEY_LOCAL.matcher(code(line));
        while (k.find()) {
          touched.add(k.group(1).toLowerCase(Locale.ROOT));
        }
      }
      Set<String> declared = new TreeSet<>();
      for (String line : ScriptLibrary.raw(name + ".lua").split("\n")) {
        if (line.startsWith("-- Touches")) {
          String list = line.substring(line.indexOf(':') + 1);
          // "none": a script whose keys are not a queue's (replace_record, a record collection).
          Arrays.stream(list.split(","))
              .map(String::trim)
              .filter(key -> !key.equals("none"))
              .forEach(declared::add);
        }
      }
      if (!declared.equals(touched)) {
        problems.add(name + ".lua header says " + declared + ", the script touches " + touched);
      }
    }
    assertThat(problems).isEmpty();
  }
}
