package io.lineup.core.internal;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * Loads the engine's Lua scripts from the classpath, resolving {@code --#include lib/x.lua} lines
 * by pasting the named helper in place (once per script), so helpers are written once.
 */
public final class ScriptLibrary {
  /** Folder of the scripts on the classpath. */
  public static final String ROOT = "io/lineup/core/scripts/";

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
          "respawn",
          "purge",
          "promote",
          "reclaim",
          "expire",
          "retention");

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
  public static final LuaScript RESPAWN = load("respawn");
  public static final LuaScript PURGE = load("purge");
  public static final LuaScript PROMOTE = load("promote");
  public static final LuaScript RECLAIM = load("reclaim");
  public static final LuaScript EXPIRE = load("expire");
  public static final LuaScript RETENTION = load("retention");

  private static final String INCLUDE = "--#include ";

  private ScriptLibrary() {}

  /**
   * Loads one script by name, includes resolved.
   *
   * @throws IllegalStateException when the script or an included helper is missing
   */
  public static LuaScript load(String name) {
    StringBuilder out = new StringBuilder();
    expand(name + ".lua", out, new LinkedHashSet<>());
    return LuaScript.of(name, out.toString());
  }

  /** The raw text of a file under {@link #ROOT}, includes not resolved. */
  public static String raw(String path) {
    try (InputStream in = ScriptLibrary.class.getClassLoader().getResourceAsStream(ROOT + path)) {
      if (in == null) {
        throw new IllegalStateException("Missing Lua script " + ROOT + path);
      }
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static void expand(String path, StringBuilder out, Set<String> seen) {
    for (String line : raw(path).split("\n", -1)) {
      if (line.startsWith(INCLUDE)) {
        String include = line.substring(INCLUDE.length()).trim();
        if (seen.add(include)) {
          expand(include, out, seen);
        }
      } else {
        out.append(line).append('\n');
      }
    }
  }
}
