package io.lineup.core.internal.store;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Loads the engine's Lua scripts from the classpath, resolving {@code --#include lib/x.lua} lines
 * by pasting the named helper in place (once per script), so helpers are written once. Helpers
 * include the helpers they use themselves, so each file lists exactly what it uses ({@code
 * ScriptIncludesTest} checks it).
 */
public final class ScriptLibrary {
  // Declared before the scripts below, which use them while the class initialises.
  private static final String INCLUDE = "--#include ";
  // Where the helpers end and the script's own code begins while constants are written in.
  private static final String BODY_MARK = "--#body";

  /** A call: a whole word, then {@code (} with maybe spaces between. */
  private static final Pattern CALL = Pattern.compile("\\b(\\w+)\\s*\\(");

  /** Folder of the scripts on the classpath. */
  public static final String ROOT = "io/lineup/core/scripts/";

  /**
   * Assembles every script now, if that has not happened yet: resolving their includes and writing
   * their constants in takes hundreds of milliseconds of CPU, and seconds on a busy machine, which
   * must not count against the first call's command timeout.
   */
  public static void prepare() {
    // Initialising this class assembles the scripts; nothing else to do.
  }

  /** Every top-level script the engine calls. */
  public static final List<String> NAMES =
      List.of(
          "publish",
          "lease",
          "ack",
          "nack",
          "extend",
          "cancel",
          "get",
          "stats",
          "peek",
          "configure",
          "dead_list",
          "jobs_list",
          "jobs_act",
          "respawn",
          "purge",
          "promote",
          "reclaim",
          "expire",
          "retention",
          "release",
          "shorten",
          "outbox_ack",
          "replace_record",
          "rate_slot",
          "schedule_read",
          "schedule_write",
          "schedule_fire",
          "schedule_delete",
          "fair_key_write",
          "fair_unpark",
          "fair_key_read",
          "fair_top",
          "fair_drop",
          "adaptive_configure",
          "adaptive_report",
          "adaptive_read");

  /**
   * The first line of the scripts that add jobs, settings or schedules ({@code publish}, {@code
   * configure}, {@code schedule_write}, {@code schedule_fire}): flags declared (none), so that
   * Redis at its {@code maxmemory} refuses the call before it starts, and a refused call has
   * written nothing.
   */
  static final String REFUSED_AT_MEMORY_LIMIT = "#!lua\n";

  /**
   * The first line of every other script: they move, settle or remove jobs, so consumers keep
   * working at the memory limit and free memory. Without it Redis would refuse such a script at its
   * first write that may add memory (an extend's {@code ZADD}), however much it would free.
   */
  static final String ALLOWED_AT_MEMORY_LIMIT = "#!lua flags=allow-oom\n";

  private static final Set<String> ADDING_SCRIPTS =
      Set.of("publish", "configure", "schedule_write", "schedule_fire", "adaptive_configure");

  public static final LuaScript PUBLISH = load("publish");
  public static final LuaScript LEASE = load("lease");
  public static final LuaScript ACK = load("ack");
  public static final LuaScript NACK = load("nack");
  public static final LuaScript EXTEND = load("extend");
  public static final LuaScript CANCEL = load("cancel");
  public static final LuaScript GET = load("get");
  public static final LuaScript STATS = load("stats");
  public static final LuaScript PEEK = load("peek");
  public static final LuaScript CONFIGURE = load("configure");
  public static final LuaScript DEAD_LIST = load("dead_list");
  public static final LuaScript JOBS_LIST = load("jobs_list");
  public static final LuaScript JOBS_ACT = load("jobs_act");
  public static final LuaScript RESPAWN = load("respawn");
  public static final LuaScript PURGE = load("purge");
  public static final LuaScript PROMOTE = load("promote");
  public static final LuaScript RECLAIM = load("reclaim");
  public static final LuaScript EXPIRE = load("expire");
  public static final LuaScript RETENTION = load("retention");
  public static final LuaScript RELEASE = load("release");
  public static final LuaScript SHORTEN = load("shorten");
  public static final LuaScript OUTBOX_ACK = load("outbox_ack");
  public static final LuaScript REPLACE_RECORD = load("replace_record");
  public static final LuaScript RATE_SLOT = load("rate_slot");
  public static final LuaScript SCHEDULE_READ = load("schedule_read");
  public static final LuaScript SCHEDULE_WRITE = load("schedule_write");
  public static final LuaScript SCHEDULE_FIRE = load("schedule_fire");
  public static final LuaScript SCHEDULE_DELETE = load("schedule_delete");
  public static final LuaScript FAIR_KEY_WRITE = load("fair_key_write");
  public static final LuaScript FAIR_UNPARK = load("fair_unpark");
  public static final LuaScript FAIR_KEY_READ = load("fair_key_read");
  public static final LuaScript FAIR_TOP = load("fair_top");
  public static final LuaScript FAIR_DROP = load("fair_drop");
  public static final LuaScript ADAPTIVE_CONFIGURE = load("adaptive_configure");
  public static final LuaScript ADAPTIVE_REPORT = load("adaptive_report");
  public static final LuaScript ADAPTIVE_READ = load("adaptive_read");

  private ScriptLibrary() {}

  /**
   * Loads one script by name, includes resolved. Of the included helpers, only the functions the
   * script uses (directly or through other helpers) are kept: Lua creates a closure for every
   * {@code local function} on every call, which costs about 0.3 microseconds of Redis time each.
   * Its whole-number constants are written into the code that uses them ({@link LuaConstants}).
   *
   * @throws IllegalStateException when the script or an included helper is missing
   */
  public static LuaScript load(String name) {
    return load(name, true);
  }

  /**
   * Loads one script by name with every function of its helpers, used or not: what {@link
   * #load(String)} would send without pruning. For the benchmark that measures what pruning saves.
   *
   * @throws IllegalStateException when the script or an included helper is missing
   */
  public static LuaScript loadUnpruned(String name) {
    return load(name, false);
  }

  private static LuaScript load(String name, boolean prune) {
    List<String> body = new ArrayList<>();
    List<LuaChunk> helpers = new ArrayList<>();
    expand(name + ".lua", body, helpers, new LinkedHashSet<>());
    if (!prune) {
      StringBuilder whole = new StringBuilder();
      helpers.forEach(chunk -> whole.append(chunk.text()));
      return script(name, whole.toString(), body);
    }
    Set<String> called = calledNames(String.join("\n", body));
    boolean grew = true;
    Set<LuaChunk> kept = new HashSet<>();
    while (grew) {
      grew = false;
      for (LuaChunk chunk : helpers) {
        if (!kept.contains(chunk)
            && (chunk.function() == null || called.contains(chunk.function()))) {
          kept.add(chunk);
          called.addAll(calledNames(chunk.text()));
          grew = true;
        }
      }
    }
    StringBuilder out = new StringBuilder();
    for (LuaChunk chunk : helpers) {
      if (kept.contains(chunk)) {
        out.append(chunk.text());
      }
    }
    return script(name, out.toString(), body);
  }

  /**
   * The script from its helpers' text and its own lines, constants written in ({@link
   * LuaConstants}), in both forms: the text {@code EVALSHA} runs and the library {@code FCALL}
   * calls ({@link FunctionLibrary}).
   */
  private static LuaScript script(String name, String helpers, List<String> body) {
    StringBuilder whole = new StringBuilder(helpers).append(BODY_MARK).append('\n');
    body.forEach(line -> whole.append(line).append('\n'));
    String inlined = LuaConstants.inline(whole.toString());
    // The mark starts a line: the first, or one after the helpers' last newline.
    int mark =
        inlined.startsWith(BODY_MARK + "\n") ? 0 : inlined.indexOf("\n" + BODY_MARK + "\n") + 1;
    String inlinedHelpers = inlined.substring(0, mark);
    String inlinedBody = inlined.substring(mark + BODY_MARK.length() + 1);
    String source = shebang(name) + inlinedHelpers + inlinedBody;
    return LuaScript.of(
        name,
        source,
        sha1 ->
            FunctionLibrary.of(
                FunctionLibrary.functionName(name, sha1),
                inlinedHelpers,
                inlinedBody,
                !ADDING_SCRIPTS.contains(name)));
  }

  /** The first line: how the script behaves when Redis is at its memory limit (Redis 7.0+). */
  private static String shebang(String name) {
    return ADDING_SCRIPTS.contains(name) ? REFUSED_AT_MEMORY_LIMIT : ALLOWED_AT_MEMORY_LIMIT;
  }

  /**
   * The names the text calls: every whole word followed by {@code (}, spaces between allowed. Read
   * once per chunk; a pattern per helper function over the growing text of the kept ones was most
   * of the engine's start-up time.
   */
  private static Set<String> calledNames(String text) {
    Set<String> names = new HashSet<>();
    Matcher call = CALL.matcher(text);
    while (call.find()) {
      names.add(call.group(1));
    }
    return names;
  }

  private static void expand(
      String path, List<String> body, List<LuaChunk> helpers, Set<String> seen) {
    for (String line : raw(path).split("\n", -1)) {
      if (line.startsWith(INCLUDE)) {
        include(line.substring(INCLUDE.length()).trim(), helpers, seen, new LinkedHashSet<>());
      } else {
        body.add(line);
      }
    }
  }

  /**
   * Adds a helper's chunks after those of the helpers it includes, each helper once, so every
   * function is defined before the code that refers to it.
   *
   * @param open the helpers being included around this one, to report an include cycle
   */
  private static void include(
      String path, List<LuaChunk> helpers, Set<String> seen, Set<String> open) {
    if (!open.add(path)) {
      throw new IllegalStateException(
          "Include cycle: " + String.join(" -> ", open) + " -> " + path);
    }
    if (seen.add(path)) {
      StringBuilder own = new StringBuilder();
      for (String line : raw(path).split("\n", -1)) {
        if (line.startsWith(INCLUDE)) {
          include(line.substring(INCLUDE.length()).trim(), helpers, seen, open);
        } else {
          own.append(line).append('\n');
        }
      }
      helpers.addAll(LuaChunk.split(own.toString()));
    }
    open.remove(path);
  }

  /** The raw text of a file under {@link #ROOT}, includes not resolved. */
  public static String raw(String path) {
    // Class.getResourceAsStream: in a named module only the module itself may read its resources.
    try (InputStream in = ScriptLibrary.class.getResourceAsStream("/" + ROOT + path)) {
      if (in == null) {
        throw new IllegalStateException("Missing Lua script " + ROOT + path);
      }
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
